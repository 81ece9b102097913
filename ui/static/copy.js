// The app's copy buttons (ui/clipboard.py): one button per text, each copying it with the browser's clipboard
// and saying so; where the browser refuses (no clipboard access, a page not served over HTTPS), it says how to
// copy by hand and selects the text in a box beside it. Labels and texts are set as text and as a box's value,
// never as HTML. Served once as a file, so each element of each run carries only a small loader.

const CSS = `
.copy { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; font-family: var(--st-font); }
.buttons { display: inline-flex; flex-wrap: wrap; gap: 0.5rem; }
.copy-button {
  display: inline-flex; align-items: center; gap: 0.4rem; padding: 0.35rem 0.8rem; cursor: pointer;
  font: inherit; font-size: var(--st-base-font-size, 1rem); color: var(--st-text-color);
  background: var(--st-secondary-background-color); border: 1px solid var(--st-border-color, #8888);
  border-radius: var(--st-base-radius, 0.5rem);
}
.copy-button:hover { border-color: var(--st-primary-color); color: var(--st-primary-color); }
.copy-button:focus-visible { outline: 2px solid var(--st-primary-color); outline-offset: 2px; }
.status { color: var(--st-text-color); font-size: 0.95em; }
.fallback { flex: 1 1 100%; font: inherit; font-family: var(--st-code-font, monospace); padding: 0.3rem;
  color: var(--st-text-color);
  background: var(--st-background-color); border: 1px solid var(--st-border-color, #8888); }
`;

const SVG = "http://www.w3.org/2000/svg";

function element(tag, className, attributes = {}) {
  const node = document.createElement(tag);
  node.className = className;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

function icon() {
  const svg = document.createElementNS(SVG, "svg");
  const attributes = {
    class: "icon", "aria-hidden": "true", viewBox: "0 0 24 24", width: "18", height: "18", fill: "none",
    stroke: "currentColor", "stroke-width": "2",
  };
  for (const [name, value] of Object.entries(attributes)) svg.setAttribute(name, value);
  const rect = document.createElementNS(SVG, "rect");
  for (const [name, value] of Object.entries({ x: "9", y: "9", width: "11", height: "11", rx: "2" })) {
    rect.setAttribute(name, value);
  }
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", "M5 15V6a2 2 0 0 1 2-2h9");
  svg.append(rect, path);
  return svg;
}

// The box's parts, made once per element: its style, the row of buttons, what it says, the fallback box
function parts(parentElement) {
  if (!parentElement.__copyParts) {
    const style = document.createElement("style");
    style.textContent = CSS;
    const root = element("div", "copy");
    const buttons = element("span", "buttons");
    const status = element("span", "status", { role: "status", "aria-live": "polite" });
    const fallback = element("textarea", "fallback", { rows: "3", readonly: "" });
    fallback.hidden = true;
    root.append(buttons, status, fallback);
    parentElement.append(style, root);
    parentElement.__copyParts = { buttons, status, fallback };
  }
  return parentElement.__copyParts;
}

export function draw(component) {
  const { data, parentElement } = component;
  const { buttons, status, fallback } = parts(parentElement);
  // Streamlit calls this again whenever anything of the element changes, the theme too (a system switching to
  // dark): the same buttons are kept, with what they said, so that no click a reader just made is undone
  const shown = JSON.stringify(data);
  if (parentElement.__copyShown === shown) return;
  parentElement.__copyShown = shown;
  fallback.hidden = true;
  status.textContent = "";
  buttons.replaceChildren();
  for (const item of data.items) {
    const button = element("button", "copy-button", { type: "button" });
    const label = element("span", "label");
    label.textContent = item.label;
    button.append(icon(), label);
    const refused = () => {
      status.textContent = data.failed;
      fallback.value = item.text;
      fallback.hidden = false;
      fallback.focus();
      fallback.select();
    };
    button.onclick = async () => {
      if (!navigator.clipboard || !window.isSecureContext) return refused();
      try {
        await navigator.clipboard.writeText(item.text);
        fallback.hidden = true;
        status.textContent = item.copied;
      } catch (error) {
        refused();
      }
    };
    buttons.appendChild(button);
  }
}
