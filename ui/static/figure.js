// The app's figure component (ui/figure_component.py): one plotly.js chart per slot, kept mounted; each new
// figure is applied with Plotly.react, so the chart's node stays and uirevision keeps a student's zoom and pan.
//
// What st.plotly_chart's frontend gave the app is done here: the app's theme (Streamlit's plotly theme, with
// the colours of the component's theme variables), the figure's width up to its column's, the mode bar (PNG
// from plotly's own button, SVG and fullscreen added), role=figure with the text description as aria-label.
// And where a figure colours an annotation itself, that colour reads in the theme (WCAG AA), light or dark.
// Nothing here reads text as HTML: the figure's text goes to plotly, the description to an attribute.

const FULLSCREEN_ICON = {
  width: 600, height: 470,
  path: "M32 32C14.3 32 0 46.3 0 64v96c0 17.7 14.3 32 32 32s32-14.3 32-32V96h64c17.7 0 32-14.3 32-32s-14.3-32-32-32H32zM64 352c0-17.7-14.3-32-32-32s-32 14.3-32 32v96c0 17.7 14.3 32 32 32h96c17.7 0 32-14.3 32-32s-14.3-32-32-32H64V352zM320 32c-17.7 0-32 14.3-32 32s14.3 32 32 32h64v64c0 17.7 14.3 32 32 32s32-14.3 32-32V64c0-17.7-14.3-32-32-32H320zM448 352c0-17.7-14.3-32-32-32s-32 14.3-32 32v64H320c-17.7 0-32 14.3-32 32s14.3 32 32 32h96c17.7 0 32-14.3 32-32V352z",
};
const CLOSE_ICON = {
  width: 600, height: 470,
  path: "M160 64c0-17.7-14.3-32-32-32s-32 14.3-32 32v64H32c-17.7 0-32 14.3-32 32s14.3 32 32 32h96c17.7 0 32-14.3 32-32V64zM32 320c-17.7 0-32 14.3-32 32s14.3 32 32 32H96v64c0 17.7 14.3 32 32 32s32-14.3 32-32V352c0-17.7-14.3-32-32-32H32zM352 64c0-17.7-14.3-32-32-32s-32 14.3-32 32v96c0 17.7 14.3 32 32 32h96c17.7 0 32-14.3 32-32s-14.3-32-32-32H352V64zM320 320c-17.7 0-32 14.3-32 32v96c0 17.7 14.3 32 32 32s32-14.3 32-32V384h64c17.7 0 32-14.3 32-32s-14.3-32-32-32H320z",
};
const SVG_ICON = {
  width: 1000, height: 1000,
  path: "M500 80l-250 280h160v300h180v-300h160z M100 760h800v160h-800z",
};
const NARROWEST = 150; // px, as st.plotly_chart
const MIN_CONTRAST = 4.5; // WCAG AA for text of normal size: what every text a figure sets its own colour for keeps
const FULLSCREEN_PAD = 24; // px around a figure shown full screen

function runScript(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    script.onload = () => resolve(window.Plotly);
    script.onerror = () => reject(new Error("plotly.js did not load from " + src));
    document.head.appendChild(script);
  });
}

// plotly.js from its packed file (gzip, sent by the server as it is: ui/served.py), unpacked here and run from a
// blob; null where that cannot be done (no DecompressionStream, the file not there yet), to take the plain file
async function unpacked(packed) {
  if (!packed || typeof DecompressionStream !== "function") return null;
  try {
    const response = await fetch(packed);
    if (!response.ok || !response.body) return null;
    const code = await new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).blob();
    return URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
  } catch (error) {
    return null;
  }
}

function loadPlotly(src, packed) {
  if (window.Plotly && window.Plotly.react) return Promise.resolve(window.Plotly);
  if (!window.__attentionPlotly) {
    window.__attentionPlotly = unpacked(packed).then(async (blob) => {
      if (!blob) return runScript(src);
      try {
        return await runScript(blob);
      } catch (error) {
        return runScript(src);
      } finally {
        URL.revokeObjectURL(blob);
      }
    });
  }
  return window.__attentionPlotly;
}

function cssVar(style, name, fallback) {
  const value = style.getPropertyValue(name).trim();
  return value && value !== "unset" ? value : fallback;
}

// A CSS colour (any that plotly takes: a name, #rgb, rgb(), rgba(), hsl()) as [red, green, blue, alpha], 0-255
// and 0-1, as the browser itself reads it; unreadable, it is none (null).
let colourReader = null;
function rgba(color) {
  if (typeof color !== "string" || !color.trim()) return null;
  colourReader = colourReader || document.createElement("canvas").getContext("2d");
  colourReader.fillStyle = "#010203";
  colourReader.fillStyle = color;
  const value = colourReader.fillStyle;
  if (value === "#010203" && color.replace(/\s/g, "").toLowerCase() !== "#010203") return null;
  if (value.startsWith("#")) return [1, 3, 5].map((i) => parseInt(value.slice(i, i + 2), 16)).concat(1);
  const [red, green, blue, alpha] = value.match(/[\d.]+/g).map(Number);
  return [red, green, blue, alpha === undefined ? 1 : alpha];
}

// `top` painted over the opaque `base`: what the eye sees.
function over(top, base) {
  const alpha = top[3];
  return [0, 1, 2].map((i) => alpha * top[i] + (1 - alpha) * base[i]).concat(1);
}

function luminance(rgb) { // WCAG's relative luminance
  const [r, g, b] = rgb.slice(0, 3).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a, b) {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high + 0.05) / (low + 0.05);
}

// The colour a figure gave a text, where it reads on `background` (opaque, [r, g, b, a]); else that colour moved
// toward the theme's text colour, a tenth at a time, until it does (a dark blue mark turns a light blue on a dark
// page); the theme's text colour itself if nothing between does.
function readable(color, background, text) {
  const own = rgba(color);
  if (!own) return color;
  const seen = over(own, background);
  if (contrast(seen, background) >= MIN_CONTRAST) return color;
  const toward = over(rgba(text) || [0, 0, 0, 1], background);
  for (let tenth = 1; tenth < 10; tenth++) {
    const mixed = [0, 1, 2].map((i) => Math.round(seen[i] + ((toward[i] - seen[i]) * tenth) / 10));
    if (contrast(mixed, background) >= MIN_CONTRAST) return `rgb(${mixed.join(", ")})`;
  }
  return text;
}

// The figure's annotations (a panel's name, a mark such as "este paso →") drawn on the figure's background, or
// on their own box's, each with a colour of its own that reads there in the app's theme. Only annotations: the
// values written on a heatmap's cells and the words in the block figure's boxes sit on colours of their own,
// chosen for them (ui/figure_specs.py), and the texts of the theme's template are the theme's text colour.
function readableAnnotations(annotations, paper, text) {
  if (!Array.isArray(annotations)) return annotations;
  return annotations.map((note) => {
    const color = note && note.font && note.font.color;
    if (typeof color !== "string") return note;
    const box = rgba(note.bgcolor);
    const background = box ? over(box, paper) : paper;
    const shown = readable(color, background, text);
    return shown === color ? note : { ...note, font: { ...note.font, color: shown } };
  });
}

// Streamlit's plotly theme (its frontend's, for theme="streamlit"), coloured from the component's theme variables:
// it is the figure's template, so what a figure sets itself wins.
function themeTemplate(element) {
  const style = getComputedStyle(element);
  const text = cssVar(style, "--st-text-color", "#31333f");
  const background = cssVar(style, "--st-background-color", "#ffffff");
  const border = cssVar(style, "--st-border-color", "rgba(49, 51, 63, 0.2)");
  const grid = cssVar(style, "--st-border-color-light", border);
  const font = cssVar(style, "--st-font", "sans-serif");
  const headingFont = cssVar(style, "--st-heading-font", font);
  const heading = cssVar(style, "--st-heading-color", text);
  const colorway = cssVar(style, "--st-chart-categorical-colors", "").split(",").map((c) => c.trim()).filter(Boolean);
  const axis = {
    zerolinecolor: grid, gridcolor: grid, tickcolor: grid, minor: { gridcolor: grid }, automargin: true,
    tickfont: { color: text, size: 12 }, title: { font: { color: text, size: 14 } },
  };
  return {
    key: [text, background, border, grid, font, headingFont, heading, colorway.join()].join("|"),
    background,
    text,
    template: {
      layout: {
        font: { color: text, family: font, size: 12 },
        title: { font: { family: headingFont, size: 16, color: heading }, pad: { l: 2 }, xanchor: "left", x: 0 },
        legend: { bordercolor: "rgba(0,0,0,0)", borderwidth: 0, valign: "top", font: { size: 12, color: text } },
        paper_bgcolor: background,
        plot_bgcolor: background,
        ...(colorway.length ? { colorway } : {}),
        xaxis: { ...axis, showgrid: false, zeroline: false, title: { ...axis.title, standoff: 20 } },
        yaxis: { ...axis, ticklabelposition: "outside", title: { ...axis.title, standoff: 24 } },
        margin: { pad: 8, r: 0, l: 0 },
        hoverlabel: { bgcolor: background, bordercolor: border, font: { color: text, family: font, size: 12 } },
        coloraxis: { colorbar: { tickfont: { color: text, size: 12 }, outlinecolor: "rgba(0,0,0,0)" } },
      },
    },
  };
}

function bold(title) {
  if (title === undefined || title === null) return title;
  const named = typeof title === "string" ? { text: title } : title;
  return typeof named.text === "string" && named.text ? { ...named, text: "<b>" + named.text + "</b>" } : named;
}

function fileName(chart) {
  const options = (chart.data.config || {}).toImageButtonOptions || {};
  return options.filename || "figure";
}

function setFullscreen(chart, on) {
  chart.fullscreen = on;
  const box = chart.box;
  box.classList.toggle("attention-figure-fullscreen", on);
  Object.assign(box.style, on
    ? { position: "fixed", inset: "0", zIndex: "1000100", padding: FULLSCREEN_PAD + "px", overflow: "auto",
        background: chart.background || "" }
    : { position: "", inset: "", zIndex: "", padding: "", overflow: "", background: "" });
  if (on) {
    chart.onKey = (event) => { if (event.key === "Escape") setFullscreen(chart, false); };
    chart.onResize = () => render(chart);
    window.addEventListener("keydown", chart.onKey);
    window.addEventListener("resize", chart.onResize);
  } else if (chart.onKey) {
    window.removeEventListener("keydown", chart.onKey);
    window.removeEventListener("resize", chart.onResize);
    chart.onKey = chart.onResize = null;
  }
  render(chart);
}

// The mode bar: plotly's own buttons as the figure's config asks, then SVG and fullscreen. The buttons are made
// once per chart and kept: Plotly.react draws anew from nothing when its config changes, functions included.
function modeBarConfig(chart) {
  const labels = chart.data.labels || {};
  const key = JSON.stringify([chart.data.config, labels, chart.fullscreen]);
  if (chart.configKey === key) return chart.config;
  if (!chart.buttons) {
    chart.buttons = {
      svg: { name: "downloadSvg", icon: SVG_ICON,
             click: (gd) => window.Plotly.downloadImage(gd, { format: "svg", filename: fileName(chart) }) },
      open: { name: "fullscreen", icon: FULLSCREEN_ICON, click: () => setFullscreen(chart, true) },
      close: { name: "closeFullscreen", icon: CLOSE_ICON, click: () => setFullscreen(chart, false) },
    };
  }
  const { svg, open, close } = chart.buttons;
  svg.title = labels.svg || "SVG";
  open.title = labels.fullscreen || "Fullscreen";
  close.title = labels.close_fullscreen || "Close fullscreen";
  const config = { ...(chart.data.config || {}) };
  config.displaylogo = false;
  config.showSendToCloud = false;
  config.modeBarButtonsToAdd = [chart.fullscreen ? close : open, svg, ...(config.modeBarButtonsToAdd || [])];
  chart.config = config;
  chart.configKey = key;
  return config;
}

function describe(chart) {
  const alt = (chart.data.alt || "").trim();
  if (alt) {
    chart.box.setAttribute("role", "figure");
    chart.box.setAttribute("aria-label", alt);
  } else {
    chart.box.removeAttribute("role");
    chart.box.removeAttribute("aria-label");
  }
}

// Draw the chart's latest figure. Only one Plotly.react at a time: figures that arrive meanwhile are not queued,
// the last one is drawn next (a dragged slider leaves no queue of redraws behind). The chart's node says when it
// shows its latest figure at its place's width: data-drawn="true" once that Plotly.react has resolved, "false"
// from a new figure or a new width until then (what the browser tests wait for, instead of a guessed pause).
async function render(chart) {
  // As st.plotly_chart, nothing is drawn where it cannot be seen (a tab not open, a folded expander: no width);
  // the chart appears, drawn, when its place gets a width. A chart taken away is not drawn (nor put back).
  if (chart.gone || (!chart.fullscreen && chart.parent.clientWidth === 0)) return;
  if (!chart.box.isConnected) chart.parent.appendChild(chart.box);
  chart.box.dataset.drawn = "false";
  if (chart.drawing) { chart.again = true; return; }
  chart.drawing = true;
  try {
    do {
      chart.again = false;
      const Plotly = await loadPlotly(chart.plotlySrc, chart.plotlyPacked);
      if (chart.gone) return;
      const drawing = chart.data;
      const figure = drawing.figure || { data: [], layout: {} };
      const layout = figure.layout || {};
      const theme = themeTemplate(chart.parent);
      chart.background = theme.background;
      if (chart.fullscreen) chart.box.style.background = theme.background;
      let width = layout.width;
      let height = layout.height;
      if (chart.fullscreen) {
        width = window.innerWidth - 2 * FULLSCREEN_PAD;
        height = window.innerHeight - 2 * FULLSCREEN_PAD;
      } else {
        const room = chart.parent.clientWidth;
        if (room > 0) width = Math.max(NARROWEST, width ? Math.min(width, room) : room);
      }
      chart.width = width;
      const drawn = { ...layout, width, height, template: theme.template };
      if ("title" in layout) drawn.title = bold(layout.title);
      if ("annotations" in layout) {
        const page = rgba(theme.background) || [255, 255, 255, 1];
        const paper = rgba(layout.paper_bgcolor);
        drawn.annotations = readableAnnotations(layout.annotations, paper ? over(paper, page) : page, theme.text);
      }
      await Plotly.react(chart.graph, figure.data || [], drawn, modeBarConfig(chart));
      chart.drawnWidth = chart.parent.clientWidth;
      chart.drawn = drawing;
    } while (chart.again && !chart.gone);
    if (chart.drawn === chart.data) chart.box.dataset.drawn = "true";
  } finally {
    chart.drawing = false;
    if (chart.gone) purge(chart); // taken away while plotly.js was drawing: purged now that it has finished
  }
}

// Plotly.purge takes the graph's event emitter and layout away: done in the middle of a Plotly.react, plotly's
// next step fails on them ("e.emit is not a function"). So a chart is purged only when no draw is under way.
function purge(chart) {
  if (chart.purged || !window.Plotly) return;
  chart.purged = true;
  window.Plotly.purge(chart.graph);
}

// plotly.js fetched and run ahead of any figure (figure_component.preload_ui): the browser does it while the
// server is still busy, e.g. loading a model, instead of after the page's first figure has arrived.
export function preload(plotlySrc, plotlyPacked) {
  return loadPlotly(plotlySrc, plotlyPacked).catch(() => undefined); // a figure drawn later says if it does not load
}

export function draw(component, plotlySrc, plotlyPacked) {
  const { data, parentElement } = component;
  let chart = parentElement.__attentionFigure;
  if (!chart) {
    const box = document.createElement("div");
    box.className = "attention-figure";
    box.setAttribute("data-testid", "attentionFigure");
    const graph = document.createElement("div");
    box.appendChild(graph);
    chart = { parent: parentElement, box, graph, generation: 0, plotlySrc, plotlyPacked };
    parentElement.__attentionFigure = chart;
    // a narrower or wider column (a phone turned, the sidebar opened): the figure follows, up to its own width
    chart.observer = new ResizeObserver(() => {
      const stale = chart.parent.clientWidth !== chart.drawnWidth || chart.drawn !== chart.data;
      if (!chart.fullscreen && chart.parent.clientWidth > 0 && stale) render(chart);
    });
    chart.observer.observe(parentElement);
  }
  // the mark Streamlit put in the place before this code had arrived (figure_component.PLACE_HTML): the chart's
  // own node, or none where the place has no width, is what the page shows from now on
  for (const mark of parentElement.querySelectorAll("[data-attention-place]")) mark.remove();
  chart.data = data || {};
  chart.box.dataset.drawn = "false";
  const height = ((chart.data.figure || {}).layout || {}).height;
  if (height) chart.graph.style.minHeight = height + "px"; // the figure's room is kept while plotly.js loads
  describe(chart);
  render(chart);
  const generation = ++chart.generation;
  // Streamlit calls the cleanup of a call that a newer one overtook, and the latest one's when the chart leaves
  // the page: only that one takes the chart away.
  return () => {
    if (generation !== chart.generation) return;
    chart.gone = true;
    chart.observer.disconnect();
    if (chart.fullscreen) setFullscreen(chart, false);
    chart.box.remove();
    delete parentElement.__attentionFigure;
    if (!chart.drawing) purge(chart); // else render() purges it when its draw is done
  };
}
