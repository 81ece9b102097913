"""Textos en español rioplatense: el constructor Q/K/V."""

STRINGS: dict[str, str] = {
    "builder.title": "Constructor Q/K/V",
    "builder.lead": "Tu propio caso de prueba: editá los tokens y sus vectores x, las matrices W_Q, W_K y W_V, y las opciones. Todos los mapas de calor se recalculan al instante, y «Paso a paso» usa estos mismos números.",
    "builder.edit": "Editar el escenario",
    "builder.x": "Tokens y vectores x (podés agregar, borrar y renombrar filas)",
    "builder.weights": "Matrices de pesos (filas: dimensiones de x; columnas: dimensiones de salida)",
    "builder.options": "Opciones",
    "builder.projections": "Q, K y V",
    "builder.attention": "Scores, escala y pesos",
    "builder.output": "Salida",
    "builder.cell": "Una celda, de punta a punta",
    "builder.cell.masked": "La máscara causal no deja que «{q}» mire a «{k}», que viene después: su peso es 0.",
    "builder.cell.weight": "Peso de atención de «{q}» hacia «{k}»: {weight} ({percent}) de su fila.",
    "builder.learned.title": "¿Qué se aprende?",
    "builder.learned.body": "En un Transformer entrenado, x viene de los pasos anteriores de la serie (embedding y posición) y las que se ajustan son W_Q, W_K y W_V (junto con los embeddings). Aprender W_Q y W_K es aprender **qué preguntas hace cada palabra y qué anuncia cada una**, de modo que las parejas útiles (un verbo y su sujeto, un pronombre y a quién reemplaza) den scores altos. Aprender W_V es aprender **qué información conviene pasar** cuando alguien te presta atención. El divisor, la máscara y el softmax no se aprenden: son la parte fija de la receta.",
    "builder.cell.row": "La fila de «{q}» entera por el softmax:",
}
