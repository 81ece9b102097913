"""Textos en español rioplatense: el paso a paso."""

STRINGS: dict[str, str] = {
    "walk.title": "Paso a paso: «el perro come»",
    "walk.lead": (
        "Self-attention en cinco partes, una por vez, con cada cuenta a la vista («el perro come»: *the dog "
        "eats*). Todo sale del escenario compartido: si cambiás W_Q en el constructor, las cuentas de acá cambian "
        "con él. Cada resultado se calcula con los números tal como están escritos en su renglón, así que podés "
        "rehacerlo con una calculadora; «≈» marca un redondeo."
    ),
    "walk.part": "Parte",
    "walk.prev": "Anterior",
    "walk.next": "Siguiente",
    "walk.progress": "Parte {part} de {total}: {name}",
    "walk.inputs": "Los vectores de entrada x (embedding + posición, como los deja el paso 3 de la lección)",
    "walk.code": "El código: las líneas de numpy que corre el motor",
    "walk.name.1": "Q, K y V de cada token",
    "walk.name.2": "Scores: Q · Kᵀ",
    "walk.name.3.sqrt": "Dividir por √d_k",
    "walk.name.3.dk": "Dividir por d_k",
    "walk.name.3.none": "Sin dividir",
    "walk.name.4": "Softmax de cada fila",
    "walk.name.5": "Suma ponderada de los values",
    "walk.quoted": "«{token}»",
    "walk.share": "«{token}» {share}",
    "walk.masked_share": "enmascarado",
    "walk.masked_cell": "enmascarado: la máscara causal no deja mirar hacia adelante (peso 0)",
    # part 1
    "walk.1.body": (
        "Cada token arma tres vectores a partir de su x, multiplicándolo por tres matrices de pesos: "
        "Q = x · W_Q (lo que busca), K = x · W_K (lo que ofrece para que lo encuentren) y V = x · W_V (lo que "
        "entrega si lo eligen). En un modelo real las W se aprenden; acá están inventadas, pero la mecánica es "
        "la misma."
    ),
    "walk.1.shapes": "Formas: x {x} · W_Q {w} → Q {q}; lo mismo K; x {x} · W_V {wv} → V {v}.",
    "walk.1.role": "Proyección que se deriva",
    "walk.1.derivation": (
        "Cada dimensión j del resultado es el producto punto entre x y la **columna j** de la matriz. Así se "
        "calcula {role} de «{token}», dimensión por dimensión:"
    ),
    "walk.1.column": "(columna {j} de W_{role} = {column})",
    "walk.1.repeat": "Lo mismo con las otras matrices y los otros tokens: {count} productos vector × matriz en total.",
    "walk.code.1": "q = x @ w_q   # (n, d_model) @ (d_model, d_k) → (n, d_k)\nk = x @ w_k   # (n, d_k)\nv = x @ w_v   # (n, d_v)",
    # part 2
    "walk.2.body": (
        "Ahora cada query se compara con cada key mediante un producto punto: cuanto más grande, mejor "
        "coinciden. Con {n} tokens son {n2} productos, que se ordenan en una matriz S = Q · Kᵀ: cada **fila** "
        "es un token que pregunta y cada **columna**, un token al que se mira."
    ),
    "walk.2.shapes": "Formas: Q {q} · Kᵀ {kt} → S {s}.",
    "walk.2.pair": "El producto completo para «{q}» → «{k}»:",
    "walk.2.reading": (
        "En la fila de «{token}», el mejor match es con «{best}» ({best_score}) y el peor, con «{worst}» "
        "({worst_score}). Ojo: todavía no son porcentajes; falta escalar y aplicar softmax."
    ),
    "walk.2.asymmetry": (
        "S no es simétrica: «{q}» → «{k}» da {forward}, pero «{k}» → «{q}» da {backward}. Lo que «{q}» busca "
        "(su Q) no es lo que ofrece (su K); por eso W_Q y W_K son matrices distintas."
    ),
    "walk.code.2": "scores = q @ k.T   # (n, d_k) @ (d_k, n) → (n, n)",
    # part 3
    "walk.3.body.sqrt": (
        "Antes del softmax, cada score se divide por √d_k, donde d_k es la dimensión de las keys (acá {dk}, así "
        "que se divide por {divisor})."
    ),
    "walk.3.body.dk": (
        "Con la opción elegida en el constructor, cada score se divide por d_k = {divisor}, no por √d_k: es "
        "dividir de más, y el softmax se aplana."
    ),
    "walk.3.body.none": (
        "Con la opción elegida en el constructor, los scores **no** se dividen: pasan tal cual al softmax. Con "
        "d_k grande, eso lo satura."
    ),
    "walk.3.formula.sqrt": r"\mathrm{score}'_{ij} = \frac{Q_i \cdot K_j}{\sqrt{d_k}}",
    "walk.3.formula.dk": r"\mathrm{score}'_{ij} = \frac{Q_i \cdot K_j}{d_k}",
    "walk.3.formula.none": r"\mathrm{score}'_{ij} = Q_i \cdot K_j",
    "walk.3.why": (
        "¿Por qué? Un producto punto suma d_k términos, unos positivos y otros negativos, que en parte se "
        "cancelan: su tamaño típico crece como √d_k, no como d_k (como quien camina al azar: tras n pasos queda a "
        "unos √n del origen). Sin la división, con vectores largos los scores se hacen enormes y el softmax pone "
        "casi todo en un solo token; dividiendo por √d_k vuelven a una escala cercana a 1. Eso vale cuando las "
        "coordenadas son independientes y de varianza 1, como al empezar el entrenamiento: la lección lo llama "
        "con razón «un truco práctico»."
    ),
    "walk.3.temperature": (
        "Otra forma de verlo: dividir los scores por {divisor} antes del softmax es aplicar un softmax con "
        "temperatura T = {divisor}. Cuanto mayor la temperatura, más pareja queda la atención."
    ),
    "walk.3.link": "El experimento √d_k: medilo vos",
    "walk.3.row": "La fila de «{token}», antes y después:",
    "walk.code.3": "scaled = scores / np.sqrt(d_k)   # (n, n)\nscaled = np.where(allowed, scaled, -np.inf)   # la máscara causal, si está prendida",
    # part 4
    "walk.4.body": (
        "Softmax convierte cada fila de scores escalados en proporciones que suman 1: cuánta atención le presta "
        "ese token a cada uno de los demás (a sí mismo incluido)."
    ),
    "walk.4.temperature": (
        "Con la temperatura T = {t} elegida en el constructor, cada score se divide por T antes de e^x. (Esta "
        "temperatura está para explorar: la atención estándar no la tiene, y no es la temperatura con la que "
        "un modelo elige palabras al generar texto.)"
    ),
    "walk.4.row": "La cuenta para la fila de «{token}»:",
    "walk.4.masked": (
        "Con la máscara causal (la que usan los decodificadores tipo GPT), «{token}» solo puede mirar a "
        "{allowed}; el resto queda en 0. El ejemplo de la lección es un codificador: todos miran a todos."
    ),
    "walk.4.reading": "«{token}» reparte su atención así:",
    "walk.4.with": "dividiendo por {divisor}",
    "walk.4.without": "sin dividir",
    "walk.4.compare_reading": (
        "Sin dividir, las diferencias entre scores son más grandes y la atención se concentra más en el score "
        "mayor. Con scores chicos como estos la diferencia es leve; con d_k grande, sin dividir el softmax se "
        "satura (lo mide el experimento √d_k)."
    ),
    "walk.errata.title": "**Fe de erratas de la lección**",
    "walk.errata.body": (
        "La lección imprime una fila mal: el softmax de la fila de «perro» *sin* dividir por √d_k sale "
        "[0,222; 0,382; 0,396], pero es **[0,247; 0,427; 0,326]**. Se nota sin calculadora: softmax respeta el "
        "orden, y «come» (score 0,954) no puede recibir más atención que «perro» (1,223).\n\n"
        "Las otras diferencias no son errores, son redondeos: la lección sigue calculando con valores ya "
        "redondeados. 0,611 por 0,612 (1,223268 ÷ 2 = 0,611634), 0,379 por 0,380 (0,379505), e^x 1,404 y 1,842 "
        "por 1,403 y 1,843 (e de los scores sin redondear), 0,517 por 0,516 (0,779 × 0,663 = 0,516477) y 0,773 "
        "por 0,772 en output_perro[2] (pesos redondeados)."
    ),
    "walk.code.4": "weights = softmax(scaled / T, axis=-1)   # (n, n), cada fila suma 1\n# softmax(z) = exp(z - max(z)) / sum(exp(z - max(z)))",
    # part 5
    "walk.5.body": (
        "El último paso: el nuevo vector de cada token es una mezcla de los values de todos, y cada uno entra en "
        "la mezcla según el peso de atención que le tocó."
    ),
    "walk.5.shapes": "Formas: pesos {a} · V {v} → output {out}.",
    "walk.5.mix": (
        "Pensalo como un licuado: 50 % banana, 30 % frutilla y 20 % mango suman 100 % y sabe sobre todo a "
        "banana; cuanto mayor la proporción, más domina ese ingrediente. Acá los ingredientes son los vectores V "
        "y las proporciones, los pesos del softmax."
    ),
    "walk.5.scalar_slider": "Peso de «come» (el resto se reparte entre «el» y «perro» como 3 a 4)",
    "walk.5.scalar_lhs": "10·α_el + 20·α_perro + 30·α_come",
    "walk.5.scalar": (
        "Con un número por token (V_el = 10, V_perro = 20, V_come = 30) la mezcla da {result}. Con los pesos "
        "de la lección (0,3; 0,4; 0,3) da justo 20, el promedio; mové el peso de «come» y mirá cómo la mezcla "
        "se tira hacia el valor que más pesa."
    ),
    "walk.5.vector": "Con vectores es lo mismo, componente por componente (el ejemplo de la lección):",
    "walk.5.vector_lhs": "0,5·A + 0,3·B + 0,2·C",
    "walk.5.derivation": "Ahora con los V de verdad: el output de «{token}», dimensión por dimensión:",
    "walk.5.collapse": (
        "Mirá los outputs: son casi el mismo vector (el coseno entre cualquier par es por lo menos {cosine}). "
        "Con pesos casi parejos, la suma ponderada promedia los values y borra las diferencias: acá la atención "
        "todavía no le dio a cada token un contexto propio. Los Transformers reales tienen dos remedios: suman "
        "el output al x de entrada (la conexión residual, después de una proyección W_O), y usan varias cabezas "
        "con matrices distintas, cada una atenta a otra cosa."
    ),
    "walk.5.distinct": (
        "Los outputs de los tokens son distintos entre sí (el coseno más bajo entre dos de ellos es {cosine}): "
        "cada token recibió una mezcla propia."
    ),
    "walk.5.next": (
        "Lo que sigue en la lección es multi-head attention: esto mismo, varias veces en paralelo y con "
        "matrices distintas, más la conexión residual."
    ),
    "walk.code.5": "output = weights @ v   # (n, n) @ (n, d_v) → (n, d_v)",
}
