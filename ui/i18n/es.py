"""Textos en español rioplatense (el idioma por defecto)."""

STRINGS: dict[str, str] = {
    # --- shell ---
    "app.title": "Self-attention, número por número",
    "sidebar.presentation": "Modo presentación",
    "sidebar.presentation_help": "Letra y gráficos más grandes para proyectar; los editores quedan plegados.",
    "page.home": "Inicio",
    "page.softmax": "Softmax",
    "page.walkthrough": "Paso a paso",
    "page.builder": "Constructor Q/K/V",
    "page.scaling": "Experimento √d_k",
    "page.pipeline": "De la frase al vector",
    # --- home ---
    "home.title": "Self-attention, número por número",
    "home.lead": (
        "Esta es la pieza que convierte palabras sueltas en palabras **con contexto**. Acá podés ver, y "
        "cambiar, cada número que interviene: nada está precalculado, todo lo calcula el motor en vivo."
    ),
    "home.problem.title": "El problema: cada palabra está sola",
    "home.problem.body": (
        "Después del embedding y de la codificación posicional, cada token tiene un vector propio, pero ese "
        "vector no sabe nada de sus vecinos. Mirá esta frase:"
    ),
    "home.problem.sentence": "el perro come carne porque tiene hambre",
    "home.problem.question": (
        "¿Quién tiene hambre? Vos sabés al instante que es el **perro**, no la carne. Pero para el modelo, "
        '"tiene" está cuatro palabras más allá de "perro" y, sin un mecanismo que los conecte, no hay forma '
        "de unirlos. Self-attention es ese mecanismo: cada token mira a todos los demás y se queda con lo que "
        "le sirve para entenderse."
    ),
    "home.search.title": "Una analogía: el buscador",
    "home.search.body": "Cuando buscás algo en la web entran en juego tres cosas distintas:",
    "home.search.query.title": "Query: lo que buscás",
    "home.search.query.body": "Tu pregunta, por ejemplo *«recetas de pasta sin gluten»*.",
    "home.search.key.title": "Key: lo que cada página anuncia",
    "home.search.key.body": "Sus etiquetas: *pasta*, *italiana*, *sin gluten*. Es el cartel que ve el buscador.",
    "home.search.value.title": "Value: lo que te llevás",
    "home.search.value.body": "El contenido de verdad: la receta completa, con fotos y todo.",
    "home.search.match": (
        "El buscador compara tu query con la key de cada página; donde coinciden bien, te trae su value, y "
        "lo que no coincide queda afuera. La atención hace lo mismo, pero en vez de elegir una sola página "
        "mezcla los values de todas, cada uno en proporción a qué tan bien coincidió."
    ),
    "home.self.title": "La vuelta de tuerca: cada token es las tres cosas",
    "home.self.body": (
        "En el buscador, vos sos la pregunta y las páginas son las respuestas. En self-attention no hay nadie "
        "afuera: cada token arma su propia query, muestra su propia key y ofrece su propio value. Cuando "
        '"perro" pregunta, mira las keys de **todos** los tokens, incluida la suya; cuando pregunta '
        '"come", la key de "perro" está entre las candidatas. La frase se atiende a sí misma: de ahí el '
        "*self*."
    ),
    "home.map.title": "El recorrido",
    "home.map.softmax": "Softmax: cómo convertir puntajes cualesquiera en proporciones que suman 1.",
    "home.map.walkthrough": 'Paso a paso: los cinco pasos del algoritmo con "el perro come", cada cuenta a la vista.',
    "home.map.builder": "Constructor Q/K/V: tu propio caso; editá x y las matrices W y mirá qué cambia.",
    "home.map.scaling": "Experimento √d_k: por qué se divide por √d_k, medido en vivo.",
    "home.map.pipeline": "De la frase al vector: escribí una oración y seguila hasta los vectores con contexto.",
    "home.formula": "La fórmula completa, que vamos a desarmar pieza por pieza:",
    # --- softmax playground ---
    "softmax.title": "Softmax: de puntajes a proporciones",
    "softmax.lead": (
        "Tenés una lista de puntajes sin ninguna restricción y querés proporciones: números entre 0 y 1 que "
        "sumen exactamente 1. Editá los puntajes (podés agregar, borrar y usar negativos) y mové la temperatura."
    ),
    "softmax.scores": "Puntajes",
    "softmax.score_column": "puntaje",
    "softmax.temperature": "Temperatura T",
    "softmax.temperature_help": "Softmax usa e^(x/T): T chica agudiza las diferencias, T grande las aplana.",
    "softmax.preset.lesson": "Ejemplo: 2, 5, 1",
    "softmax.preset.negative": "Con negativos",
    "softmax.preset.huge": "Enormes: 1000, 1001",
    "softmax.naive.title": "Intento ingenuo: dividir por la suma",
    "softmax.softmax.title": "Softmax",
    "softmax.chart.title": "Proporciones: softmax frente a la división ingenua",
    "softmax.chart.softmax": "softmax",
    "softmax.chart.naive": "dividir por la suma",
    "softmax.chart.y": "proporción",
    "softmax.total": "Suma de los puntajes: {total}",
    "softmax.naive.ok": "Acá funciona, pero no agranda las diferencias: el puntaje más alto pesa sólo {naive} veces el más bajo; con softmax (T = 1), {soft} veces.",
    "softmax.naive.problem.sum_zero": "La suma da 0: no se puede dividir por cero. La división ingenua no da ningún resultado.",
    "softmax.naive.problem.sum_negative": "La suma es negativa: los signos se dan vuelta y el puntaje más alto termina con la proporción más baja.",
    "softmax.naive.problem.negative_entries": "Hay puntajes negativos: salen «proporciones» negativas, que no tienen sentido como probabilidades.",
    "softmax.formula.title": "La receta",
    "softmax.formula.body": (
        "Softmax resuelve todo con la exponencial: a cada puntaje le aplicás e^x (que siempre da positivo), "
        "y después dividís cada resultado por la suma de todos. Los positivos garantizan proporciones "
        "válidas, y la exponencial agranda las diferencias entre puntajes."
    ),
    "softmax.steps.title": "La cuenta, paso a paso",
    "softmax.steps.body": "Primero e^x de cada puntaje, después la suma, después cada uno dividido por la suma; al final, la verificación.",
    "softmax.steps.tempered": "Con T = {t}, cada puntaje se divide primero por T.",
    "softmax.steps.shifted": (
        "Estos puntajes son tan grandes que e^x se desborda (da ∞ en float64). Por eso la cuenta se hace "
        "restando antes el máximo, {shift}: el resultado es idéntico, porque e^(x−m) / Σ e^(x−m) = e^x / Σ e^x."
    ),
    "softmax.negative.title": "¿Y con puntajes negativos?",
    "softmax.negative.body": (
        "Con {scores} la suma da {total}. Dividir por la suma falla; softmax, en cambio, da {weights}: todo "
        "positivo, suma 1 y respeta el orden."
    ),
    "softmax.huge.title": "¿Y con puntajes enormes?",
    "softmax.huge.body": (
        "Con {scores}, e^x directo se desborda: e^1000 ya no entra en un float64 y da {naive}. Restando el "
        "máximo antes (e^(x−1001)) quedan números chicos y el resultado sale bien: {weights}."
    ),
    "softmax.check": "Verificación: suman {total}",
    # --- scenario, walkthrough and builder ---
    "scenario.reset": "Volver al ejemplo de la lección",
    "scenario.random": "Números al azar",
    "scenario.seed": "Semilla",
    "scenario.scale": "Dividir los scores por",
    "scenario.scale.none": "nada",
    "scenario.scale.sqrt": "√d_k",
    "scenario.scale.dk": "d_k",
    "scenario.temperature": "Temperatura del softmax",
    "scenario.causal": "Máscara causal",
    "scenario.causal_help": "Cada token mira sólo a los anteriores y a sí mismo, como al generar texto.",
    "scenario.edited": "Estás viendo tu propio escenario, no el de la lección: los números cambian con tus ediciones.",
    "scenario.query_token": "Token que pregunta",
    "scenario.key_token": "Token al que mira",
    "walk.title": 'Paso a paso: "el perro come"',
    "walk.lead": (
        "Los cinco pasos del algoritmo, uno por vez, con cada cuenta a la vista. Todo se calcula en vivo a "
        "partir del escenario compartido: si cambiás W_Q en el constructor, las cuentas de acá cambian con él."
    ),
    "walk.step": "Paso",
    "walk.prev": "Anterior",
    "walk.next": "Siguiente",
    "walk.progress": "Paso {step} de {total}: {name}",
    "walk.keys_hint": "Tip: las flechas ← y → del teclado también cambian de paso.",
    "walk.inputs": "Los vectores de entrada x (embedding + posición, del paso 3)",
    "walk.name.1": "Q, K y V de cada token",
    "walk.name.2": "Scores: Q · Kᵀ",
    "walk.name.3": "Dividir por √d_k",
    "walk.name.4": "Softmax de cada fila",
    "walk.name.5": "Suma ponderada de los values",
    "walk.1.body": (
        "Cada token arma tres vectores a partir de su x, multiplicándolo por tres matrices de pesos: "
        "Q = x · W_Q (lo que busca), K = x · W_K (lo que ofrece para ser encontrado) y V = x · W_V (lo que "
        "entrega si lo eligen). En un modelo real las W se aprenden; acá están inventadas, pero la mecánica es "
        "la misma."
    ),
    "walk.1.role": "Proyección que se deriva",
    "walk.1.derivation": (
        "Cada dimensión j del resultado es el producto punto entre x y la **columna j** de la matriz. "
        "Así se calcula {role} de «{token}», dimensión por dimensión:"
    ),
    "walk.1.repeat": "Lo mismo con las otras matrices y los otros tokens: {count} productos vector × matriz en total.",
    "walk.2.body": (
        "Ahora cada query se compara con cada key mediante un producto punto: cuanto más grande, mejor "
        "coinciden. Con {n} tokens son {n2} productos, que se ordenan en una matriz S = Q · Kᵀ: cada **fila** es "
        "un token que pregunta y cada **columna** un token al que se mira."
    ),
    "walk.2.pair": "El producto completo para «{q}» → «{k}»:",
    "walk.2.reading": (
        "En la fila de «{token}», el mejor match es con «{best}» ({best_score}) y el peor con «{worst}» "
        "({worst_score}). Ojo: todavía no son porcentajes; falta escalar y aplicar softmax."
    ),
    "walk.3.body": (
        "Antes del softmax, cada score se divide por √d_k, donde d_k es el largo de las keys (acá {dk}, así "
        "que se divide por {divisor})."
    ),
    "walk.3.body_mode": "Con la opción elegida en el constructor, el divisor es {divisor}.",
    "walk.3.why": (
        "¿Por qué? Un producto punto suma d_k términos, unos positivos y otros negativos, que en parte se "
        "cancelan: su tamaño típico crece como √d_k, no como d_k (como quien camina al azar: tras n pasos "
        "queda a unos √n del origen). Sin la división, con vectores largos los scores se hacen enormes y el "
        "softmax pone casi todo en un solo token; dividiendo por √d_k vuelven a una escala cercana a 1, donde "
        "el softmax todavía distingue sin saturarse. El experimento √d_k lo muestra con números."
    ),
    "walk.3.row": "La fila de «{token}», antes y después:",
    "walk.4.body": (
        "Softmax convierte cada fila de scores escalados en proporciones que suman 1: cuánta atención le "
        "presta ese token a cada uno de los demás (a sí mismo incluido)."
    ),
    "walk.4.row": "La cuenta para la fila de «{token}»:",
    "walk.4.masked": "Con la máscara causal, «{token}» sólo puede mirar a {allowed}; el resto queda en 0.",
    "walk.4.compare": "La misma fila sin dividir por √d_k, al lado:",
    "walk.4.with": "dividiendo por {divisor}",
    "walk.4.without": "sin dividir",
    "walk.4.reading": "«{token}» reparte su atención así: {shares}.",
    "walk.5.body": (
        "El último paso: el nuevo vector de cada token es una mezcla de los values de todos, y cada uno entra "
        "en la mezcla según el peso de atención que le tocó."
    ),
    "walk.5.mix": (
        "Pensalo como un licuado: si ponés mucho de banana y poquito de mango, sabe sobre todo a banana. Acá "
        "los ingredientes son los vectores V y las proporciones son los pesos del softmax, que suman 1."
    ),
    "walk.5.scalar": (
        "Con un solo número por token se ve clarito: values {values} con pesos {weights} dan {result}. No es "
        "ni el más chico ni el más grande: es un promedio tirado hacia los que pesan más."
    ),
    "walk.5.derivation": "Ahora con vectores: el output de «{token}», dimensión por dimensión:",
    "walk.5.before": "Antes: x de «{token}» (sólo él y su posición)",
    "walk.5.after": "Después: output de «{token}» (con el contexto de la frase)",
    "walk.5.closing": (
        "El vector cambió: ya no representa a «{token}» en abstracto sino a «{token}» en esta frase. Eso es lo "
        "que agrega self-attention: contexto. El paso 5 de la serie, multi-head attention, repite esto varias "
        "veces en paralelo, con matrices distintas, para captar varios tipos de relación a la vez."
    ),
    "matrix.x": "x",
    "matrix.q": "Q = x · W_Q",
    "matrix.k": "K = x · W_K",
    "matrix.v": "V = x · W_V",
    "matrix.scores": "Scores Q · Kᵀ",
    "matrix.scaled": "Scores ÷ {divisor}",
    "matrix.weights": "Pesos (softmax)",
    "matrix.output": "Output = pesos · V",
    "matrix.rows_query": "quién pregunta",
    "matrix.rows_token": "token",
    "matrix.dim": "d{j}",
    # --- builder ---
    "builder.title": "Constructor Q/K/V",
    "builder.lead": (
        "Tu propio caso de prueba: editá los tokens y sus vectores x, las matrices W_Q, W_K y W_V, y las "
        "opciones. Todos los mapas de calor se recalculan al instante, y el paso a paso usa estos mismos números."
    ),
    "builder.edit": "Editar el escenario",
    "builder.x": "Tokens y vectores x (podés agregar, borrar y renombrar filas)",
    "builder.weights": "Matrices de pesos (filas: dimensiones de x; columnas: dimensiones de salida)",
    "builder.options": "Opciones",
    "builder.projections": "Q, K y V",
    "builder.attention": "Scores, escala y pesos",
    "builder.output": "Salida",
    "builder.cell": "Una celda, de punta a punta",
    "builder.cell.score": "Score:",
    "builder.cell.scaled": "Escalado: {score} ÷ {divisor} = {scaled}",
    "builder.cell.masked": "La máscara causal no deja que «{q}» mire a «{k}», que viene después: su peso es 0.",
    "builder.cell.weight": "Peso de atención de «{q}» hacia «{k}»: {weight} ({percent}) de su fila.",
    "builder.learned.title": "¿Qué se aprende?",
    "builder.learned.body": (
        "En un Transformer entrenado, x viene de los pasos anteriores y las que se ajustan son W_Q, W_K y W_V "
        "(junto con los embeddings). Aprender W_Q y W_K es aprender **qué preguntas hace cada palabra y qué "
        "anuncia cada una**, de modo que las parejas útiles (un verbo y su sujeto, un pronombre y a quién "
        "reemplaza) den scores altos. Aprender W_V es aprender **qué información conviene pasar** cuando alguien "
        "te presta atención. El divisor, la máscara y el softmax no se aprenden: son la parte fija de la receta."
    ),
    # --- scaling experiment (pages/scaling_experiment.py) ---
    "scaling.title": "¿Por qué dividir por √d_k? Medilo vos",
    "scaling.lead": (
        "En la fórmula de atención, los scores se dividen por √d_k antes del softmax. Acá no hace falta "
        "creerlo: generás vectores al azar, medís y comparás. Todo lo calcula el motor en vivo."
    ),
    "scaling.tab.idea": "1 · La idea",
    "scaling.tab.walk": "2 · Un paseo al azar",
    "scaling.tab.experiment": "3 · El experimento",
    "scaling.tab.row": "4 · Tres divisores",
    "scaling.tab.summary": "5 · En resumen",
    "scaling.why.title": "La idea: un producto punto es una suma de d_k términos",
    "scaling.why.body": (
        "El score entre una query y una key es su producto punto: se multiplican coordenada a coordenada y "
        "se suma todo. Con d_k = 64 estás sumando 64 productos:"
    ),
    "scaling.why.cancel": (
        "Si todos esos productos valieran +1, la suma daría d_k: crecería en línea recta con la dimensión. "
        "Pero q y k tienen coordenadas variadas, positivas y negativas, y los productos también: unos empujan "
        "para arriba, otros para abajo, y buena parte se compensa. La suma crece, pero mucho más despacio. "
        "¿Cuánto más despacio? Eso lo contesta el paseo al azar."
    ),
    "scaling.walk.title": "La intuición: un paseo al azar",
    "scaling.walk.body": (
        "Pensá en alguien que antes de cada paso tira una moneda: cara, un paso a la derecha; ceca, uno a la "
        "izquierda. Después de n pasos, ¿qué tan lejos quedó del punto de partida? No a n pasos: de tanto ir y "
        "venir se cancela casi todo, y la distancia típica queda en **√n**. Mové los controles y comprobalo."
    ),
    "scaling.walk.walks": "Cantidad de paseos",
    "scaling.walk.steps": "Pasos por paseo",
    "scaling.walk.sqrt_n": "√n",
    "scaling.walk.paths_title": "{shown} de los paseos y la banda ±√n",
    "scaling.walk.measured": "dispersión medida ({walks} paseos)",
    "scaling.walk.spread_title": "Dispersión de la posición frente a √n",
    "scaling.walk.step_axis": "paso n",
    "scaling.walk.position_axis": "posición",
    "scaling.walk.spread_axis": "desvío estándar de la posición",
    "scaling.walk.reading": (
        "Después de **{steps}** pasos, la distancia típica al origen (el desvío estándar entre todos los "
        "paseos) es **{spread}**, y √{steps} = **{sqrt}**. Si todos hubieran caminado en línea recta, "
        "estarían a {steps} pasos."
    ),
    "scaling.walk.bridge": (
        "El producto punto q·k es un paseo así: cada coordenada aporta un «paso» qᵢ·kᵢ de signo al azar. Por "
        "eso su tamaño típico no es d_k sino √d_k."
    ),
    "scaling.experiment.title": "El experimento: medí la dispersión de q·k",
    "scaling.experiment.body": (
        "Para cada d_k que elijas, el motor genera muchos pares q, k con coordenadas al azar (normales, media 0 "
        "y varianza 1), calcula q·k y mide su dispersión (el desvío estándar). Si la intuición del paseo vale, "
        "tiene que dar ≈ √d_k, y al dividir por √d_k tiene que quedar ≈ 1 cualquiera sea d_k."
    ),
    "scaling.experiment.dks": "Valores de d_k",
    "scaling.experiment.samples": "Muestras por d_k",
    "scaling.experiment.samples_help": (
        "Cuántos productos q·k se generan para cada d_k. Con más muestras la medición es más precisa (y la "
        "primera vez tarda un poco más)."
    ),
    "scaling.seed": "Semilla",
    "scaling.experiment.pick_one": "Elegí al menos un valor de d_k para correr el experimento.",
    "scaling.experiment.running": "Generando vectores al azar y midiendo…",
    "scaling.experiment.caption": (
        "{samples} productos punto por fila. Probá otra semilla: los números se mueven un poquito, pero la "
        "última columna sigue pegada a 1."
    ),
    "scaling.experiment.measured": "dispersión medida",
    "scaling.experiment.sqrt_dk": "√d_k",
    "scaling.experiment.plot_title": "Dispersión de q·k frente a d_k (ejes logarítmicos)",
    "scaling.experiment.spread_axis": "dispersión de q·k",
    "scaling.experiment.reading": (
        "Con los dos ejes en escala logarítmica, √d_k es una recta de pendiente 1/2, y los puntos medidos caen "
        "justo encima. Dividir por √d_k deja los scores siempre en una escala de alrededor de 1, sin importar "
        "el tamaño de los vectores: una escala neutra y constante para el softmax."
    ),
    "scaling.average.title": "Qué le pasa al softmax, en promedio",
    "scaling.average.body": (
        "Con esos mismos productos punto, el motor arma filas de {n} scores ({rows} filas por d_k), les aplica "
        "softmax con cada divisor y promedia dos cosas: el peso más grande de cada fila y su entropía, que "
        "mide cuánto se reparte la atención (una fila perfectamente pareja tiene entropía ln {n} = {ln})."
    ),
    "scaling.col.dk": "d_k",
    "scaling.col.spread": "dispersión de q·k",
    "scaling.col.sqrt_dk": "√d_k",
    "scaling.col.scaled": "dispersión ÷ √d_k",
    "scaling.col.divisor": "divisor",
    "scaling.col.max_weight": "peso máximo",
    "scaling.col.entropy": "entropía",
    "scaling.col.verdict": "veredicto",
    "scaling.divisor.none": "sin dividir",
    "scaling.divisor.sqrt": "÷ √d_k = {value}",
    "scaling.divisor.dk": "÷ d_k = {value}",
    "scaling.verdict.saturated": "saturado",
    "scaling.verdict.balanced": "equilibrado",
    "scaling.verdict.flat": "plano",
    "scaling.row.title": "Una fila concreta, tres divisores",
    "scaling.row.body": (
        "Ahora de cerca: una query al azar frente a n keys al azar da una fila de n scores. Mirá en qué pesos "
        "se convierte esa misma fila sin dividir, dividida por √d_k y dividida por d_k."
    ),
    "scaling.row.dk": "d_k",
    "scaling.row.length": "Largo de la fila (n)",
    "scaling.row.seed": "Semilla de la fila",
    "scaling.row.scores": "Los scores q·kⱼ de esta fila, antes de dividir:",
    "scaling.row.chart_title": "Pesos del softmax para la misma fila (d_k = {d_k})",
    "scaling.row.weight_axis": "peso",
    "scaling.row.rule": (
        "Cómo se decide el veredicto: «saturado» si el peso más grande pasa de 0.9; «plano» si la entropía "
        "pasa del 95% de ln {n} = {ln}; si no, «equilibrado»."
    ),
    "scaling.row.reading": (
        "Sin dividir, con d_k grande los scores quedan enormes y la exponencial le da casi todo a un solo "
        "token: el softmax se satura y casi no queda gradiente para aprender. Dividiendo por d_k te pasás de "
        "rosca: los scores quedan diminutos, todos reciben casi lo mismo y la atención no distingue nada. "
        "Dividiendo por √d_k los scores quedan en escala ~1 y el softmax puede preferir sin aplastar al resto."
    ),
    "scaling.summary.title": "En resumen",
    "scaling.summary.body": (
        "- q·k suma d_k términos de signo al azar; como en el paseo al azar, su tamaño típico crece como √d_k.\n"
        "- Dividir por √d_k (ni más ni menos) deja los scores con dispersión ≈ 1 para cualquier d_k.\n"
        "- Así el softmax trabaja en su zona útil: ni saturado ni plano."
    ),
    # --- full pipeline (pages/full_pipeline.py) ---
    "pipeline.title": "De la frase al vector con contexto",
    "pipeline.lead": (
        "Escribí una oración y seguila por todo el camino: tokens, embeddings, codificación posicional, "
        "atención y salida. Cada número lo calcula el motor en el momento."
    ),
    "pipeline.sentence": "Tu oración",
    "pipeline.sentence_help": "Se corta en palabras y signos, en minúsculas. Se usan hasta {limit} tokens.",
    "pipeline.example.lesson": "Ejemplo: el perro come",
    "pipeline.example.ambiguity": "Ejemplo: ¿quién tiene hambre?",
    "pipeline.d_model": "d_model",
    "pipeline.d_model_help": "Cuántos números tiene el vector de cada token.",
    "pipeline.weights": "Matrices W_Q, W_K, W_V",
    "pipeline.weights.lesson": "las de la lección",
    "pipeline.weights.random": "al azar, con semilla",
    "pipeline.weights.only_random": (
        "Las matrices de la lección son de {d}×{d}; con este d_model se usan matrices al azar."
    ),
    "pipeline.seed": "Semilla de las matrices",
    "pipeline.causal": "Máscara causal",
    "pipeline.causal_help": (
        "Cada token mira sólo a los anteriores y a sí mismo, como un modelo que escribe de izquierda a derecha."
    ),
    "pipeline.empty": "La oración está vacía: no tiene ninguna palabra ni signo. Escribí algo para ver el recorrido.",
    "pipeline.dropped": (
        "La oración pasa el límite de {limit} tokens: se usan los primeros {limit} y quedaron afuera {dropped}."
    ),
    "pipeline.token": "token",
    "pipeline.position": "posición",
    "pipeline.tokens.title": "1. Tokens",
    "pipeline.tokens.body": (
        "La oración queda cortada en {count} tokens: palabras y signos sueltos, en minúsculas. Arriba de cada "
        "uno, su posición."
    ),
    "pipeline.embed.title": "2. Embeddings",
    "pipeline.embed.body": (
        "Cada token pasa a ser un vector de d_model números. En un modelo real esa tabla se aprende. Acá, con "
        "d_model = 4, «el», «perro» y «come» tienen los vectores que reproducen la lección, y cualquier otra "
        "palabra recibe un vector pseudoaleatorio que sale siempre igual para la misma palabra. No significan "
        "nada: sirven para ver la mecánica."
    ),
    "pipeline.pe.title": "3. Codificación posicional",
    "pipeline.pe.body": (
        "El embedding no dice dónde está la palabra. Por eso se le suma un vector que depende sólo de la "
        "posición: senos en las columnas pares y cosenos en las impares, cada par con su propia frecuencia."
    ),
    "pipeline.pe.heat_title": "PE de las posiciones de tu oración",
    "pipeline.pe.waves_title": "Algunas columnas de la PE a lo largo de 64 posiciones",
    "pipeline.pe.column": "columna {j} ({wave})",
    "pipeline.pe.value_axis": "valor",
    "pipeline.pe.waves_caption": (
        "La franja sombreada son las {n} posiciones de tu oración. Las primeras columnas oscilan rápido y las "
        "últimas despacio: combinadas, le dan a cada posición una firma distinta."
    ),
    "pipeline.x.title": "4. x = embedding + PE",
    "pipeline.x.body": (
        "Sumando las dos cosas, cada token queda con un vector que dice qué palabra es y dónde está. Estos son "
        "los inputs de self-attention."
    ),
    "pipeline.x.lesson_match": "Son exactamente los x de la lección: x_el, x_perro y x_come, número por número.",
    "pipeline.attention.title": "5. Self-attention",
    "pipeline.attention.body": (
        "Con x se arman Q = x·W_Q, K = x·W_K y V = x·W_V; los scores Q·Kᵀ se dividen por √d_k y cada fila "
        "pasa por softmax. En el mapa, cada fila es un token que pregunta y cada columna, el token al que mira."
    ),
    "pipeline.attention.weights_lesson": "Matrices: las inventadas de la lección (4×4).",
    "pipeline.attention.weights_random": (
        "Matrices: números al azar sacados de la semilla. Cambiá la semilla y cambia todo el patrón de atención."
    ),
    "pipeline.attention.matrices": "Ver las matrices W_Q, W_K, W_V",
    "pipeline.attention.weights_title": "Pesos de atención (cada fila suma 1)",
    "pipeline.attention.asks": "token que pregunta",
    "pipeline.attention.reading": (
        "Con la máscara causal prendida, las celdas por encima de la diagonal quedan en 0: nadie mira al futuro."
    ),
    "pipeline.output.title": "6. Salida: vectores con contexto",
    "pipeline.output.body": (
        "Cada salida es una mezcla de los V de todos los tokens, con los pesos de atención como proporciones."
    ),
    "pipeline.effect.title": "Qué hizo la atención",
    "pipeline.effect.body": (
        "Para cada token: a quiénes les prestó más atención (los dos pesos más altos de su fila) y cuánto se "
        "movió su vector, ‖output − x‖."
    ),
    "pipeline.effect.col.token": "token (posición)",
    "pipeline.effect.col.top": "{rank}º más mirado",
    "pipeline.effect.col.weight": "peso del {rank}º",
    "pipeline.effect.col.moved": "‖output − x‖",
    "pipeline.effect.x_points": "x (antes)",
    "pipeline.effect.output_points": "output (después)",
    "pipeline.effect.plot_title": "De x a output: cada flecha es un token",
    "pipeline.effect.axis": "eje principal {axis} ({share} de la varianza)",
    "pipeline.effect.caption": (
        "Los vectores tienen d_model dimensiones; para dibujarlos se proyectan x y output juntos sobre los dos "
        "ejes en los que más varían (PCA). El dibujo muestra el {shown} de la varianza; las distancias de la "
        "tabla se miden en todas las dimensiones."
    ),
    "pipeline.ambiguity.title": "¿Quién tiene hambre?",
    "pipeline.ambiguity.body": (
        "Tu oración tiene «tiene» y «perro»: es la pregunta del principio. Para entender «tiene», el modelo "
        "necesita conectarlo con «perro». Esta es la atención que «tiene» le da a cada candidato con estas "
        "matrices:"
    ),
    "pipeline.ambiguity.metric": "tiene → {word}",
    "pipeline.ambiguity.score": "score q·k: {score}",
    "pipeline.ambiguity.favourite": "El token al que «tiene» más mira es «{token}» ({weight}).",
    "pipeline.ambiguity.lucky": (
        "Acá «perro» sale ganando entre los candidatos, pero seamos honestos: es casualidad. Las matrices son "
        "inventadas y los embeddings no significan nada, así que el modelo no «sabe» que «tiene» se refiere a "
        "«perro». Cambiá la semilla o el d_model y vas a ver cómo cambia el ganador."
    ),
    "pipeline.ambiguity.unlucky": (
        "Y «perro» ni siquiera gana entre los candidatos. No es un error de la cuenta: con matrices inventadas "
        "y embeddings sin significado, el modelo no tiene cómo «saber» que «tiene» se refiere a «perro». La "
        "mecánica funciona; lo que falta es aprender."
    ),
    "pipeline.ambiguity.learning_title": "Qué tendría que aprender el modelo",
    "pipeline.ambiguity.learning": (
        "Para que «tiene» mire a «perro», ese score tiene que ser el más alto de su fila, y ese score es el "
        "producto punto entre la query de «tiene» y la key de «perro». Entrenar es ajustar W_Q y W_K (y los "
        "embeddings) hasta que, en oraciones como esta, la query de un verbo apunte para el mismo lado que la "
        "key de su sujeto:"
    ),
    "pipeline.ambiguity.bridge": (
        "Nadie escribe esa regla a mano: aparece sola cuando el modelo ve millones de oraciones y corrige los "
        "pesos cada vez que se equivoca. Esta página usa exactamente la misma mecánica; lo único que cambia "
        "con el entrenamiento son los números de las matrices."
    ),
    # --- share and export ---
    "share.title": "Compartir y exportar",
    "share.link": "**Enlace** que abre esta misma vista (escenario, idioma y paso). Copialo con el botón del recuadro:",
    "share.download": "**Descargar** el escenario:",
    "share.json": "Escenario (JSON)",
    "share.figures": "Cada figura es una imagen SVG: guardala con clic derecho → «Guardar imagen como…». Se ve nítida a cualquier tamaño, ideal para tus diapositivas.",
    "share.upload": "**Subir** un escenario (JSON descargado de acá)",
    "share.bad_link": "El enlace no se pudo leer (problema en «{field}»): se muestra el ejemplo de la lección.",
    "share.bad_file": "El archivo no se pudo usar (problema en «{field}»): el escenario no cambió.",
    # --- editors and errors ---
    "editor.token": "token",
    "editor.d_model": "d_model (tamaño de x)",
    "editor.d_k": "d_k (columnas de W)",
    "editor.refused": "No se aplicó un cambio:",
    "error.not_a_number": "«{value}» no es un número; la celda {where} conserva su valor anterior.",
    "error.empty_or_nan": "La celda {where} quedó vacía o con NaN; conserva su valor anterior.",
    "error.infinite": "«{value}» es infinito; la celda {where} conserva su valor anterior.",
    "error.too_large": "{value} es demasiado grande (el límite es ±{limit}); la celda {where} conserva su valor anterior.",
    "error.empty_token": "Un token no puede tener nombre vacío; {where} conserva su nombre.",
    "error.duplicate_token": "Ya hay un token que se llama «{name}»; {where} conserva su nombre.",
    "error.token_too_long": "Los nombres de token tienen como máximo {limit} caracteres; {where} conserva su nombre.",
    "error.too_many_tokens": "Este escenario admite hasta {limit} tokens.",
    "error.no_tokens": "Tiene que quedar al menos un token.",
    "error.too_many_scores": "La lista admite hasta {limit} puntajes.",
    "error.no_scores": "Tiene que quedar al menos un puntaje.",
}
