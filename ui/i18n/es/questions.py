"""Textos en español rioplatense: las preguntas antes de cada paso, sus opciones y los errores que nombran.

`q.<plantilla>` es la pregunta (la clave que da el motor); `quiz.mistake.<error>` nombra un error, el mismo en
todas las plantillas que lo usan, y `quiz.mistake.<error>.<plantilla>` lo dice con más precisión para una.
"""

STRINGS: dict[str, str] = {
    # --- la caja de la pregunta ---
    "quiz.title": "Antes de seguir: ¿qué predecís?",
    "quiz.your_choice": "Tu respuesta",
    "quiz.your_answer": "Tu respuesta (un número)",
    "quiz.placeholder": "por ejemplo 0,954",
    "quiz.placeholder_whole": "por ejemplo 5",
    "quiz.number_help": "Con coma o con punto decimal: 0,954 y 0.954 valen lo mismo.",
    "quiz.tolerance.within": "Se acepta con una diferencia de hasta ±{tolerance}.",
    "quiz.tolerance.exact": "Tiene que ser exacta.",
    "quiz.check": "Comprobar",
    "quiz.another": "Otra pregunta",
    "quiz.show_me": "Mostrame la respuesta",
    "quiz.shown": "La respuesta: {answer}.",
    "quiz.others": "¿Y las otras respuestas? El error que hay detrás de cada una",
    "quiz.feedback.right": "¡Bien! La respuesta es {answer}.",
    "quiz.feedback.after_tries": "(al intento {n})",
    "quiz.feedback.mistake": "No es {given}. {mistake}",
    "quiz.feedback.wrong": "No es {given}, y no coincide con ningún error típico.",
    "quiz.feedback.try_again": (
        "Ahora se ve abajo cómo se calcula: revisá tu cuenta y probá de nuevo, o pedí que te muestre la respuesta."
    ),
    "quiz.error.pick_one": "Elegí una opción antes de comprobar.",
    "quiz.error.not_a_number": "«{value}» no es un número. Escribí, por ejemplo, 0,954 o 0.954.",
    "quiz.error.empty_or_nan": "Escribí un número antes de comprobar.",
    "quiz.error.infinite": "«{value}» es infinito; la respuesta es un número finito.",
    "quiz.error.too_large": "«{value}» es demasiado grande para esta pregunta.",
    "quiz.given.title": "Los números de entrada de este paso:",
    "quiz.given.token": "token",
    "quiz.given.x": "**x** (una fila por token)",
    "quiz.given.w_q": "**W_Q**",
    "quiz.given.w_k": "**W_K**",
    "quiz.given.w_v": "**W_V**",
    "quiz.given.q": "**Q** (una fila por token)",
    "quiz.given.k": "**K** (una fila por token)",
    "quiz.given.v": "**V** (una fila por token)",
    "quiz.given.scores": "**Scores S = Q · Kᵀ**, sin dividir (fila: el que mira; columna: el mirado)",
    "quiz.given.scaled_scores": "**Scores escalados** (fila: el que mira; columna: el mirado)",
    "quiz.given.weights": "**Pesos de atención** (fila: el que mira; columna: el mirado)",
    "quiz.quoted": "«{token}»",
    "quiz.token_at": "{token} (posición {position})",
    "quiz.mix_item": "{token}: V = {value}, peso {weight}",
    "quiz.shape": "{rows} × {cols}",
    "quiz.line.row": "la fila {index} de {matrix}",
    "quiz.line.column": "la columna {index} de {matrix}",
    "quiz.scale.sqrt": "÷ √d_k",
    "quiz.scale.dk": "÷ d_k",
    "quiz.scale.none": "sin dividir",
    "quiz.rule.sqrt": "dividir por √d_k = {divisor}",
    "quiz.rule.dk": "dividir por d_k = {divisor}",
    "quiz.rule.none": "no dividir",
    # --- modo presentación ---
    "quiz.lecture.numeric": "Respuesta numérica: escríbanla en un papel. {tolerance}",
    "quiz.lecture.answer": "Respuesta: {answer}",
    "quiz.lecture.reveal": "Revelar la respuesta (tecla {shortcut})",
    "quiz.lecture.keys": "Tecla {shortcut}: revela la respuesta, el error detrás de cada opción y el paso.",
    # --- la barra lateral y lo que se descarga ---
    "quiz.sidebar.toggle": "Preguntas antes de cada paso",
    "quiz.sidebar.toggle_help": (
        "Cada paso te pide una predicción antes de mostrar sus cuentas. Apagalas para ver todo directamente; "
        "la elección se mantiene mientras navegás."
    ),
    "quiz.tally": "Respondidas: {answered} · bien: {right} · al primer intento: {first}",
    "quiz.export.file": "respuestas-autoatencion",
    "quiz.export.help": (
        "Tus respuestas de esta sesión, para entregar. No se guardan en el servidor: se pierden al cerrar la pestaña."
    ),
    "quiz.export.col.page": "página",
    "quiz.export.col.template": "plantilla",
    "quiz.export.col.question": "pregunta",
    "quiz.export.col.answers": "respuestas, en orden",
    "quiz.export.col.right_answer": "respuesta correcta",
    "quiz.export.col.outcome": "resultado",
    "quiz.export.col.first_try_right": "bien al primer intento",
    "quiz.export.yes": "sí",
    "quiz.export.no": "no",
    "quiz.outcome.right": "bien",
    "quiz.outcome.misconception": "error con nombre",
    "quiz.outcome.wrong": "mal",
    "quiz.outcome.shown": "vista sin responder",
    # --- las opciones con nombre ---
    "quiz.option.spreads": "Se reparten más: quedan más parejos",
    "quiz.option.concentrates": "Se concentran más en un token",
    "quiz.option.unchanged": "No cambian",
    "quiz.option.symmetric": "Sí, S es simétrica",
    "quiz.option.not_symmetric": "No, S no es simétrica",
    "quiz.option.valid": "Proporciones válidas: entre 0 y 1, suman 1 y respetan el orden",
    "quiz.option.negative_share": "Sale alguna «proporción» negativa",
    "quiz.option.division_by_zero": "Nada: la suma da 0 y no se puede dividir",
    "quiz.option.order_reversed": "El orden se invierte: el puntaje más alto recibe la proporción más chica",
    # --- las preguntas: paso a paso ---
    "q.walk.1.q_entry": "¿Cuánto vale Q_{token}[{dim}], la dimensión {dim} del vector Q de «{token}»?",
    "q.walk.1.k_entry": "¿Cuánto vale K_{token}[{dim}], la dimensión {dim} del vector K de «{token}»?",
    "q.walk.1.v_entry": "¿Cuánto vale V_{token}[{dim}], la dimensión {dim} del vector V de «{token}»?",
    "q.walk.1.which_column": (
        "Q_{token}[{dim}] es el producto punto de x_{token} con una línea de una matriz. ¿Con cuál?"
    ),
    "q.walk.1.q_shape": "Con {n} tokens, d_model = {d_model} y d_k = {d_k}: ¿qué forma (filas × columnas) tiene Q = x · W_Q?",
    "q.walk.2.score": (
        "¿Cuánto vale el score «{token}» → «{other}», o sea, cuánto coincide lo que busca «{token}» con lo que "
        "ofrece «{other}»?"
    ),
    "q.walk.2.best_match": "Antes de escalar y del softmax: ¿con qué token tiene «{token}» el score más alto?",
    "q.walk.2.symmetric": (
        "La matriz de scores S = Q · Kᵀ de este escenario es de {n} × {n}. ¿Es simétrica, o sea, da "
        "score(a → b) = score(b → a) para todo par de tokens?"
    ),
    "q.walk.2.score_count": "Con {n} tokens, ¿cuántos scores calcula la atención en total?",
    "q.walk.3.scaled_score": (
        "El score «{token}» → «{other}» es {score}. Con la escala de este escenario ({scale}) y d_k = {d_k}, "
        "¿cuánto vale ese score escalado?"
    ),
    "q.walk.3.divisor": (
        "Escala de este escenario: {scale}. Con d_k = {d_k}, d_model = {d_model} y {n} tokens, ¿por qué número "
        "queda dividido cada score?"
    ),
    "q.walk.3.spread_effect": (
        "Si la fila de scores de «{token}» se divide por √d_k = {divisor} antes del softmax (T = {temperature}), "
        "¿qué pasa con sus pesos de atención, comparados con no dividir?"
    ),
    "q.walk.4.weight": (
        "¿Qué peso de atención le da «{token}» a «{other}»? Es el softmax de la fila de «{token}» de los scores "
        "escalados, con T = {temperature}."
    ),
    "q.walk.4.most_weight": "Después del softmax, ¿a qué token le presta más atención «{token}»?",
    "q.walk.4.row_sum": "¿Cuánto suman los pesos de atención de la fila de «{token}»?",
    "q.walk.4.without_scaling": (
        "Si los scores de «{token}» no se dividieran por nada, ¿qué pesos daría el softmax (T = {temperature})? "
        "En orden: {labels}."
    ),
    "q.walk.5.output_entry": "¿Cuánto vale output_{token}[{dim}], la dimensión {dim} del nuevo vector de «{token}»?",
    "q.walk.5.dominant_value": (
        "El output de «{token}» es una suma de términos peso · V, uno por token. ¿Qué token aporta el término "
        "más largo (el vector peso · V de mayor longitud)?"
    ),
    "q.walk.5.scalar_mix": "Con un solo número por token ({mix}), ¿cuánto vale la mezcla que arma la atención?",
    "q.walk.5.output_shape": (
        "Con {n} tokens, d_model = {d_model} y d_v = {d_v}: ¿qué forma (filas × columnas) tiene el output = pesos · V?"
    ),
    # --- softmax ---
    "q.softmax.can_be_softmax": "¿Cuál de estas filas puede haber salido de un softmax?",
    "q.softmax.of_scores": "¿Cuánto da el softmax de los puntajes {scores} con temperatura T = {temperature}?",
    "q.softmax.largest_weight": (
        "Con los puntajes {scores} y T = {temperature}, ¿cuánto vale el peso más grande que da el softmax?"
    ),
    "q.softmax.exp_step": (
        "Primer paso del softmax de {scores} con T = {temperature}: ¿cuánto vale e^(x/T) para el puntaje "
        "{index}, x = {score}?"
    ),
    "q.softmax.exp_total": (
        "Segundo paso del softmax de {scores} con T = {temperature}: ¿cuánto suman los e^(x/T) de todos los puntajes?"
    ),
    "q.softmax.temperature_up": (
        "Con los puntajes {scores}, si la temperatura pasa de T = {temperature} a T = {new_temperature}, ¿qué "
        "pasa con los pesos?"
    ),
    "q.softmax.shift": (
        "Si a cada puntaje de {scores} le sumás {shift} (con T = {temperature}), ¿qué pasa con los pesos del softmax?"
    ),
    "q.softmax.naive_problem": "Con los puntajes {scores}, ¿qué da dividir cada uno por la suma, sin exponencial?",
    # --- √d_k ---
    "q.scaling.spread": (
        "Con q y k al azar de d_k = {d_k} coordenadas (independientes, de media 0 y varianza 1), ¿cuál es el "
        "tamaño típico (el desvío estándar) de q·k?"
    ),
    "q.scaling.unit_divisor": (
        "Con d_k = {d_k}, ¿por qué número hay que dividir q·k para que su desvío estándar vuelva a ser cercano a 1?"
    ),
    "q.scaling.scaled_spread": "Con d_k = {d_k}, ¿cuál es el desvío estándar de q·k / √d_k?",
    "q.scaling.no_divisor": (
        "Con d_k = {d_k}: si los scores no se dividen (en vez de dividirlos por √d_k = {sqrt_d_k}), ¿qué pasa "
        "con los pesos del softmax?"
    ),
    "q.scaling.dk_divisor": (
        "Con d_k = {d_k}: si los scores se dividen por d_k = {d_k} en vez de por √d_k = {sqrt_d_k}, ¿qué pasa "
        "con los pesos del softmax?"
    ),
    "q.scaling.walk_distance": (
        "Tras {steps} pasos al azar de +1 o −1, ¿a qué distancia típica (el desvío estándar) del punto de "
        "partida queda el caminante?"
    ),
    # --- de la oración a los vectores ---
    "q.pipeline.token_count": "¿Cuántos tokens de la oración «{sentence}» entran a la atención?",
    "q.pipeline.pe_value": (
        "¿Cuánto vale la codificación posicional PE[{position}, {dimension}]: la de «{token}» (posición "
        "{position}) en la dimensión {dimension}, con d_model = {d_model}? (PE[pos, 2i] = "
        "sin(pos / 10000^(2i / d_model)) y PE[pos, 2i + 1] = cos(pos / 10000^(2i / d_model)).)"
    ),
    "q.pipeline.x_entry": (
        "Para «{token}» (posición {position}), en la dimensión {dimension} el embedding vale {embedding} y la "
        "codificación posicional {positional}. ¿Cuánto vale x[{position}, {dimension}]?"
    ),
    "q.pipeline.most_attended": (
        "En la matriz de pesos de arriba: ¿a qué token le presta más atención «{token}» (posición {position})?"
    ),
    # --- los errores con nombre ---
    "quiz.mistake.always_self": (
        "Un token no se mira siempre a sí mismo: lo que cuenta es cuánto coincide la Q de «{token}» con la K de "
        "cada uno."
    ),
    "quiz.mistake.lower_score": "La K de {value} coincide menos con Q_{token}: en la fila de «{token}», su score es más chico que el de la respuesta.",
    "quiz.mistake.less_weight": "{value} recibe de «{token}» menos peso que la respuesta: en la fila de «{token}», su peso es más chico.",
    "quiz.mistake.less_weight.multihead.most_attended": "En la cabeza {head}, {value} recibe de «{token}» menos peso que la respuesta: mirá la fila de «{token}» en el mapa de esa cabeza.",
    "quiz.mistake.less_weight.real_model.most_attended": "En la capa {layer}, cabeza {head}, {value} recibe de «{token}» menos peso que la respuesta: mirá la fila de «{token}» en el cuadrito de esa cabeza.",
    "quiz.mistake.shorter_term": "El término peso · V de {value} es más corto: lo que cuenta es el peso por el largo de su V, no el peso solo ni el V solo.",
    "quiz.mistake.less_target": "El objetivo de la fila de «{token}» le da a {value} menos que a la respuesta, y el entrenamiento lleva cada fila hacia su objetivo.",
    "quiz.mistake.sqrt_of_one": "Con d_k = 1, √d_k = d_k = 1: dividir por √d_k, por d_k o no dividir da lo mismo, y los pesos no cambian.",
    "quiz.mistake.nothing_changes_here": "Acá dividir no cambia los pesos: con √d_k = {divisor} (o con todos los scores de la fila de «{token}» iguales) no hay diferencias que achicar.",
    "quiz.mistake.equal_scores": "Con todos los puntajes iguales, cada peso vale 1/n con cualquier T: no hay nada más que repartir.",
    "quiz.mistake.no_negative_share": "Un cociente sale negativo solo si un puntaje tiene el signo contrario al de la suma, y la suma no es 0: acá la suma es {scores_total}, y ninguno lo tiene (o no hay cocientes).",
    "quiz.mistake.no_zero_sum": "La suma de {scores} es {scores_total}: distinta de 0, así que se puede dividir por ella.",
    "quiz.mistake.order_kept": "El orden se da vuelta cuando todos los puntajes son 0 o negativos y la suma también: entonces el más grande se lleva la parte más chica. Con {scores} la suma es {scores_total}, y eso no pasa.",
    "quiz.mistake.symmetric_here": "Con estas matrices S sí es simétrica: score(a → b) = score(b → a) para cada par, como pasa cuando W_Q = W_K.",
    "quiz.mistake.big_scores_spread": (
        "Al revés: sin dividir, con d_k = {d_k} los scores quedan unas √d_k = {sqrt_d_k} veces más grandes, y "
        "con scores más grandes el softmax se concentra, no se reparte."
    ),
    "quiz.mistake.cancels_out": (
        "En promedio los pasos se cancelan, pero la distancia típica no es 0: crece como la raíz de la cantidad "
        "de pasos, √{steps}."
    ),
    "quiz.mistake.characters": (
        "Esos son los caracteres de la oración: un token es una palabra o un signo de puntuación."
    ),
    "quiz.mistake.counted_tokens": (
        "Esa es la cantidad de tokens que mira «{token}». Los pesos son proporciones: siempre suman 1."
    ),
    "quiz.mistake.degrees": (
        "Ese valor sale con la calculadora en grados: el ángulo de la codificación posicional está en radianes."
    ),
    "quiz.mistake.divided_by_dk": "Eso da dividir por d_k = {d_k}; acá corresponde {rule}.",
    "quiz.mistake.divided_by_sqrt_dk": (
        "Eso da dividir por √d_k = {sqrt_d_k}, la escala de siempre; pero en este escenario corresponde {rule}."
    ),
    "quiz.mistake.dot_commutes": (
        "Es cierto que q·k = k·q, pero score(a → b) = Q_a · K_b y score(b → a) = Q_b · K_a usan vectores "
        "distintos: con W_Q distinta de W_K, S no tiene por qué ser simétrica."
    ),
    "quiz.mistake.dropped_counted": (
        "Eso cuenta también los tokens que quedan afuera: la atención recibe como mucho los primeros, y el "
        "resto se corta."
    ),
    "quiz.mistake.embedding_only": (
        "Ese es solo el embedding: x = embedding + codificación posicional, te faltó sumar {positional}."
    ),
    "quiz.mistake.exp_forgotten": (
        "Sumaste los puntajes divididos por T sin aplicarles e^x: el segundo paso suma los e^(x/T)."
    ),
    "quiz.mistake.exp_not_normalised": (
        "Eso es e^(x/T) sin normalizar: falta dividir por la suma de todos los e^(x/T), y por eso no suma 1."
    ),
    "quiz.mistake.exp_of_sum": (
        "Eso es e elevado a la suma de los puntajes: hay que aplicar e^x a cada puntaje y después sumar "
        "(e^(a+b) no es e^a + e^b)."
    ),
    "quiz.mistake.input_shape": (
        "Esa es la forma de x ({n} × {d_model}): el resultado tiene una fila por token, pero su ancho lo da la "
        "matriz de la derecha, no x."
    ),
    "quiz.mistake.largest_weight_value": (
        "Tomaste solo el valor del token que más pesa: la mezcla también tira hacia los demás, es Σ peso · V."
    ),
    "quiz.mistake.linear_growth": (
        "Eso sería si los {d_k} términos de q·k se sumaran sin cancelarse. Como tienen signos al azar, se "
        "cancelan en parte y el tamaño típico crece como √d_k, no como d_k."
    ),
    "quiz.mistake.mask_ignored": (
        "Te olvidaste de la máscara causal: «{token}» no puede mirar a los tokens que vienen después, y esos "
        "pesos son 0."
    ),
    "quiz.mistake.multiplied": "Multiplicaste por {divisor} en vez de dividir.",
    "quiz.mistake.multiplied_by_e": "Eso es e × (x/T), no e elevado a x/T: e^(x/T) es una potencia.",
    "quiz.mistake.naive_division": (
        "Eso es dividir cada puntaje por la suma, sin exponencial: la división ingenua. El softmax aplica e^x "
        "antes de dividir."
    ),
    "quiz.mistake.naive_division.softmax.naive_problem": (
        "Con estos puntajes la división por la suma no da proporciones válidas: mirá los signos de los puntajes "
        "y de la suma."
    ),
    "quiz.mistake.negative_weight": (
        "Esa fila tiene un peso negativo: e^x siempre es positivo, así que ningún peso de un softmax puede serlo."
    ),
    "quiz.mistake.no_divisor": "Dividir por 1 es dejar los scores como están; acá corresponde {rule}.",
    "quiz.mistake.no_growth": (
        "1 es el tamaño de un solo producto q_i · k_i. Al sumar d_k = {d_k} de ellos el tamaño crece, como √d_k."
    ),
    "quiz.mistake.not_scaled": "Ese es el valor antes de escalar: te faltó {rule}.",
    "quiz.mistake.one_per_token": (
        "Eso sería un score por token, pero cada token compara su query con la key de cada uno de los {n} "
        "tokens, él incluido."
    ),
    "quiz.mistake.other_token": (
        "Ese es el valor de «{neighbour}», no el de «{token}»: usaste la fila de x de otro token."
    ),
    "quiz.mistake.own_value": (
        "Ese es V_{token}[{dim}], el value del propio «{token}»: el output mezcla los values de todos los tokens, "
        "cada uno con su peso."
    ),
    "quiz.mistake.pair_not_halved": (
        "Usaste 10000^(dimensión/d_model). En la fórmula va 10000^(2i/d_model), con i el número de par: las "
        "dimensiones 2i y 2i+1 comparten frecuencia."
    ),
    "quiz.mistake.pairs_once": (
        "Eso cuenta cada par una sola vez, pero score(a → b) y score(b → a) son distintos: se calculan los dos."
    ),
    "quiz.mistake.plain_average": (
        "Eso es el promedio simple de los values: la atención pesa cada uno según su peso, no les da a todos lo mismo."
    ),
    "quiz.mistake.position_dimension_swapped": (
        "Intercambiaste posición y dimensión: eso es PE[{dimension}, {position}]."
    ),
    "quiz.mistake.position_only": (
        "Esa es solo la codificación posicional: x = embedding + codificación posicional, te faltó sumar {embedding}."
    ),
    "quiz.mistake.power_of_ten": "Eso es 10^(x/T): usaste la tecla 10^x de la calculadora, no e^x.",
    "quiz.mistake.previous_token": (
        "Ese es el token anterior. La atención no mira por posición sino por coincidencia entre la Q de «{token}» "
        "y las K."
    ),
    "quiz.mistake.punctuation_skipped": "Te salteaste los signos de puntuación: cada uno es un token aparte.",
    "quiz.mistake.q_dot_q": (
        "Multiplicaste Q_{token} · Q_{other}: el score usa la query de uno y la key del otro, Q_{token} · K_{other}."
    ),
    "quiz.mistake.row_instead_of_column": (
        "Usaste la fila {dim} de la matriz: en x · W, la dimensión {dim} del resultado sale de la columna {dim}."
    ),
    "quiz.mistake.scaled_too_early": (
        "Ese score ya está dividido por la escala, que es la parte 3. El score es solo Q_{token} · K_{other}."
    ),
    "quiz.mistake.scaling_changes_nothing": (
        "Sí cambian: el softmax depende de las diferencias entre scores, y dividir por un número mayor que 1 las "
        "achica."
    ),
    "quiz.mistake.scaling_sharpens": (
        "Al revés: dividir achica los scores y sus diferencias, y el softmax de scores más parecidos es más parejo."
    ),
    "quiz.mistake.scores_shape": "Esa es la forma de la matriz de scores: un número por par de tokens.",
    "quiz.mistake.self_excluded": (
        "Eso deja afuera el score de cada token consigo mismo, y también se calcula: es la diagonal de S."
    ),
    "quiz.mistake.shift_flattens": (
        "Sumar {shift} a todos no cambia las diferencias entre puntajes, y el softmax solo depende de esas "
        "diferencias: los pesos quedan iguales."
    ),
    "quiz.mistake.shift_sharpens": (
        "Sumar {shift} a todos no cambia las diferencias entre puntajes, y el softmax solo depende de esas "
        "diferencias: los pesos quedan iguales."
    ),
    "quiz.mistake.sign_flipped": (
        "Esa es la fila con los signos dados vuelta: softmax(−x) le da más peso al puntaje más chico."
    ),
    "quiz.mistake.sin_cos_swapped": (
        "Cambiaste seno por coseno: las dimensiones pares usan seno y las impares, coseno."
    ),
    "quiz.mistake.single_row": "Eso sería un solo vector para toda la oración: hay una fila por token, {n} filas.",
    "quiz.mistake.sqrt_d_model": (
        "Esa es √d_model: el divisor usa la dimensión de las keys, d_k = {d_k}, no d_model = {d_model}."
    ),
    "quiz.mistake.sqrt_n": (
        "Esa es la raíz de la cantidad de tokens ({n}): el divisor depende de d_k = {d_k}, no de cuántos tokens hay."
    ),
    "quiz.mistake.still_scaled": (
        "Esa es la fila de este escenario, con los scores divididos por {divisor}: la pregunta es qué pasaría sin "
        "dividir."
    ),
    "quiz.mistake.straight_line": (
        "Eso sería caminar siempre para el mismo lado ({steps} pasos, {steps} de distancia). Con pasos al azar se cancelan en parte, y la "
        "distancia típica es √{steps}."
    ),
    "quiz.mistake.subtracted": "Restaste: x = embedding + codificación posicional, se suman.",
    "quiz.mistake.sum_not_one": "Esa fila no suma 1: los pesos de un softmax suman exactamente 1.",
    "quiz.mistake.sum_of_exps": (
        "Esa es la suma de los e^x, antes de dividir: después de dividir cada uno por esa suma, los pesos suman 1."
    ),
    "quiz.mistake.sum_of_scores": (
        "Esa es la suma de los scores escalados de «{token}», no la de su softmax: los pesos siempre suman 1."
    ),
    "quiz.mistake.temperature_ignored": (
        "Te olvidaste de la temperatura: cada puntaje se divide por T = {temperature} antes de e^x."
    ),
    "quiz.mistake.temperature_inverted": (
        "Al revés: subir la temperatura achica las diferencias (x/T) y reparte la atención; bajarla la concentra."
    ),
    "quiz.mistake.temperature_irrelevant": (
        "La temperatura sí cambia el resultado: dividir por T = {new_temperature} en vez de por T = "
        "{temperature} achica las diferencias entre puntajes."
    ),
    "quiz.mistake.temperature_multiplied": "Multiplicaste por T = {temperature} en vez de dividir: es e^(x/T).",
    "quiz.mistake.transposed": "Filas y columnas intercambiadas: el resultado tiene una fila por token.",
    "quiz.mistake.transposed.walk.2.score": (
        "Ese es el score «{other}» → «{token}» = Q_{other} · K_{token}. El orden importa: el que mira pone su Q "
        "y el mirado, su K."
    ),
    "quiz.mistake.transposed.walk.2.best_match": (
        "Miraste la columna de «{token}»: ese es el token cuya Q mejor coincide con la K de «{token}». La fila de "
        "«{token}» usa su Q: Q_{token} · K de cada uno."
    ),
    "quiz.mistake.transposed.walk.3.scaled_score": (
        "Ese es el score escalado de «{other}» → «{token}»: el orden importa (la Q del que mira, la K del mirado)."
    ),
    "quiz.mistake.transposed.walk.4.weight": (
        "Ese es el peso que «{other}» le da a «{token}»: miraste la fila de «{other}». Cada fila es el token que mira."
    ),
    "quiz.mistake.transposed.walk.4.most_weight": (
        "Miraste la columna de «{token}»: ese es el token que más atención le presta a «{token}», no al que "
        "«{token}» mira más. Cada fila es un token que mira."
    ),
    "quiz.mistake.transposed.pipeline.most_attended": (
        "Miraste la columna de «{token}»: ese es el token que más atención le presta a «{token}», no al que "
        "«{token}» mira más. Cada fila es un token que mira."
    ),
    "quiz.mistake.transposed_weights": (
        "Usaste la columna de pesos de «{token}» (lo que los demás le dan) en vez de su fila (lo que «{token}» "
        "les da a ellos)."
    ),
    "quiz.mistake.uniform": (
        "Esa fila reparte todo por igual: el softmax solo da pesos iguales cuando los puntajes son iguales."
    ),
    "quiz.mistake.unscaled_softmax": "Ese es el softmax de los scores sin escalar: te faltó {rule}.",
    "quiz.mistake.unscaled_weights": (
        "Usaste los pesos del softmax de los scores sin escalar; la atención usa los de los scores escalados."
    ),
    "quiz.mistake.unweighted_sum": "Sumaste los values sin pesarlos: cada value se multiplica por su peso de atención.",
    "quiz.mistake.used_w_q": "Usaste W_Q, la matriz de las queries: {role}_{token} se calcula con W_{role}.",
    "quiz.mistake.used_w_k": "Usaste W_K, la matriz de las keys: {role}_{token} se calcula con W_{role}.",
    "quiz.mistake.used_w_k.walk.1.which_column": (
        "Esa es una columna de W_K, la matriz de las keys: Q se calcula con W_Q."
    ),
    "quiz.mistake.used_w_v": "Usaste W_V, la matriz de los values: {role}_{token} se calcula con W_{role}.",
    "quiz.mistake.w_q_shape": (
        "Esa es la forma de W_Q ({d_model} × {d_k}). Q = x · W_Q tiene una fila por token y d_k columnas."
    ),
    "quiz.mistake.weight_only": (
        "Ese token tiene el peso más grande, pero su V es corto: lo que cuenta es peso × V, y un V largo con "
        "menos peso puede ganarle."
    ),
    "quiz.mistake.weights_ignored": "Ese token tiene el V más largo, pero poco peso: lo que cuenta es peso × V.",
    "quiz.mistake.weights_times_x": "Mezclaste los x en vez de los V: el output es Σ peso · V.",
    "quiz.mistake.words_only": (
        "Separaste solo por los espacios: un signo de puntuación pegado a una palabra también es un token aparte."
    ),
    "quiz.mistake.wrong_column": "Esa es otra columna: la dimensión {dim} del resultado sale de la columna {dim}.",
    "quiz.mistake.x_dot_x": (
        "Multiplicaste x_{token} · x_{other}, los vectores de entrada: el score compara Q_{token} con K_{other}, "
        "después de proyectar con W_Q y W_K."
    ),
    "quiz.mistake.x_instead_of_v": (
        "Usaste el largo de los x en vez del de los V: los términos del output son peso × V."
    ),
    "quiz.mistake.x_similarity": (
        "Ese es el token cuyo x más se parece al de «{token}». El score compara Q con K, que pasan por W_Q y W_K: "
        "puede ganar otro."
    ),
    "quiz.mistake.zero_weight": (
        "Esa fila tiene un 0 exacto: e^x nunca es 0, así que sin máscara ningún peso de un softmax es exactamente 0."
    ),
    # --- varias cabezas ---
    "q.multihead.head_width": (
        "Con d_model = {d_model} repartido entre h = {h} cabezas iguales, ¿cuántas columnas (d_k) tiene la W_Q "
        "de cada cabeza?"
    ),
    "q.multihead.most_attended": "En la cabeza {head}: ¿a qué token le presta más atención «{token}» (posición {position})?",
    "q.multihead.concat_width": (
        "Cada una de las h = {h} cabezas le da a cada token una salida de d_v = {d_v} números. ¿Cuántos números "
        "tiene cada token en Concat(cabeza 1, …, cabeza h)?"
    ),
    "q.multihead.residual": (
        "Después de las {h} cabezas, Concat y W_O, la conexión residual da el vector nuevo de cada token. ¿Cuál es?"
    ),
    "quiz.option.x_plus_multihead": "x + MultiHead(x), con MultiHead(x) = Concat · W_O",
    "quiz.option.x_plus_concat": "x + Concat, sin pasar por W_O",
    "quiz.option.x_plus_head": "x + la salida de la cabeza 1",
    "quiz.option.multihead_only": "MultiHead(x) solo: x ya no hace falta",
    "quiz.option.x_times_multihead": "x · MultiHead(x), casilla por casilla",
    "quiz.mistake.heads_multiply": (
        "Multiplicaste: d_model × h = {d_model} × {h}. Las cabezas se reparten las d_model = {d_model} columnas: "
        "cada una recibe d_model / h."
    ),
    "quiz.mistake.full_width_per_head": (
        "Eso sería darle a cada cabeza todo el ancho, d_model = {d_model}. Las h = {h} cabezas se reparten esas "
        "columnas, d_model / h cada una: por eso cuestan lo mismo que una cabeza grande."
    ),
    "quiz.mistake.heads_as_width": (
        "Ese es el número de cabezas, h = {h}, no su ancho: cada cabeza recibe d_model / h columnas."
    ),
    "quiz.mistake.heads_alike": (
        "Ahí mira «{token}» en otra cabeza. Cada cabeza tiene sus propias W_Q y W_K, y por eso su propio "
        "softmax: no tienen por qué mirar al mismo lugar."
    ),
    "quiz.mistake.transposed.multihead.most_attended": (
        "Miraste la columna de «{token}» en la cabeza {head}: ese es el token que más atención le presta a "
        "«{token}», no al que «{token}» mira más. Cada fila es un token que mira."
    ),
    "quiz.mistake.one_head_only": (
        "Ese es el ancho de una sola cabeza, d_v = {d_v}: Concat pone lado a lado las salidas de las h = {h} cabezas."
    ),
    "quiz.mistake.one_per_head": (
        "Eso sería un número por cabeza: cada cabeza aporta sus d_v = {d_v} números, no uno."
    ),
    "quiz.mistake.whole_matrix": (
        "Esos son los números de toda la matriz Concat, los de los {n} tokens: la pregunta es por token, una fila."
    ),
    "quiz.mistake.w_o_skipped": (
        "Te salteaste W_O: la salida de las cabezas es Concat · W_O, y eso es lo que se suma a x."
    ),
    "quiz.mistake.one_head_added": (
        "Eso usa una sola cabeza: se suma lo que dan todas juntas, Concat(cabeza 1, …, cabeza {h}) · W_O."
    ),
    "quiz.mistake.residual_forgotten": (
        "Eso tira x: la conexión residual suma la entrada, x + MultiHead(x), y así cada token conserva lo que ya era."
    ),
    "quiz.mistake.residual_multiplied": "La conexión residual suma, no multiplica: x + MultiHead(x).",
    # --- qué se aprende ---
    "q.learning.trained_top": (
        "Si entrenás W_Q y W_K hacia la matriz objetivo, ¿a qué token va a mirar más «{token}» (posición "
        "{position}) al final?"
    ),
    "q.learning.start_loss": (
        "Antes de entrenar (paso 0): ¿cuánto vale la pérdida L = −(1/n) Σᵢ Σⱼ T_ij · log A_ij de los pesos "
        "iniciales A contra el objetivo T? (n = {rows} filas, logaritmo natural; A sale de los scores divididos "
        "por {divisor})"
    ),
    "quiz.mistake.start_top": (
        "Ahí mira «{token}» ahora, antes de entrenar. El entrenamiento baja la pérdida, que es mínima cuando cada "
        "fila de pesos es igual a su fila objetivo."
    ),
    "quiz.mistake.transposed.learning.trained_top": (
        "Miraste la columna de «{token}» en el objetivo: quién debería mirar a «{token}». La fila de «{token}» "
        "dice a quién debe mirar él."
    ),
    "quiz.mistake.always_self.learning.trained_top": (
        "El entrenamiento no favorece la propia columna: lleva la fila de «{token}» hacia su fila objetivo."
    ),
    "quiz.mistake.unscaled_softmax.learning.start_loss": (
        "Esa es la pérdida con el softmax de los scores sin dividir: los pesos A salen de los scores divididos "
        "por {divisor}."
    ),
    "quiz.mistake.transposed.learning.start_loss": (
        "Cruzaste las filas: usaste T_ji en vez de T_ij. Cada fila de T va con la misma fila de A, la del token "
        "que mira."
    ),
    "quiz.mistake.sum_not_mean": (
        "Sumaste los términos de las {rows} filas sin dividir por {rows}: la pérdida es su promedio."
    ),
    "quiz.mistake.log10": "Usaste logaritmo en base 10: la pérdida usa el logaritmo natural, ln.",
    # --- un modelo real ---
    "q.real_model.most_attended": (
        "En la capa {layer}, cabeza {head}: ¿a qué pieza le presta más atención «{token}» (posición {position})? "
        "Predecilo, o buscá su fila en el cuadrito de esa cabeza, arriba."
    ),
    "q.real_model.scaled_score": (
        "En la capa {layer}, cabeza {head}, el score q·k de «{token}» (posición {position}) a «{other}» (posición "
        "{other_position}) es {score}. Cada cabeza trabaja con d_k = {d_k} números (el modelo entero, con "
        "d_model = {d_model}). ¿Qué número recibe el softmax para esa celda?"
    ),
    "quiz.mistake.transposed.real_model.most_attended": (
        "Miraste la columna de «{token}» en la capa {layer}, cabeza {head}: esa es la pieza que más atención le "
        "presta a «{token}», no a la que «{token}» mira más. Cada fila es una pieza que mira."
    ),
    "quiz.mistake.special_sink": (
        "Muchas cabezas de un modelo real descargan casi todo el peso en [CLS]/[SEP] (o <s>/</s>), pero no todas "
        "ni en todas las filas: en esta cabeza, la fila de «{token}» le da más a otra pieza."
    ),
    "quiz.mistake.heads_alike.real_model.most_attended": (
        "Ahí mira «{token}» en otra cabeza de la capa {layer}. Cada cabeza tiene sus propias W_Q y W_K, y por eso "
        "su propio softmax: no tienen por qué mirar al mismo lugar."
    ),
    "quiz.mistake.divided_by_d_model": (
        "Eso da dividir por d_model = {d_model}, el ancho del modelo entero; acá corresponde {rule}, la raíz del "
        "ancho de una cabeza."
    ),
}
