"""Textos en español rioplatense: multi-head attention, W_O y la conexión residual."""

STRINGS: dict[str, str] = {
    "mh.title": "Varias cabezas: multi-head attention, W_O y el residual",
    "mh.lead": (
        "Una **cabeza** es una atención completa, con sus propias W_Q, W_K y W_V y su propio softmax. "
        "Multi-head attention corre varias en paralelo, cada una sobre una parte de las columnas, junta lo que "
        "encontró cada una, lo proyecta con W_O y se lo suma a x. Acá ves cada paso con números, y qué hace "
        "cada cabeza, medido en sus pesos."
    ),
    "mh.from_walk": "Lo que sigue: varias cabezas, W_O y la conexión residual",
    # the input
    "mh.source.title": "1. La entrada",
    "mh.source": "Qué tokens entran",
    "mh.source.scenario": "El escenario compartido (el del paso a paso y el constructor)",
    "mh.source.sentence": "La frase «el perro come carne porque tiene hambre» (d_model = 8)",
    "mh.source.options.one": (
        "1 token, d_model = {d_model}. Cada cabeza usa las opciones del escenario compartido: dividir por "
        "{scale}, {mask}, temperatura {temperature} (se cambian en el constructor)."
    ),
    "mh.source.options.other": (
        "{n} tokens, d_model = {d_model}. Cada cabeza usa las opciones del escenario compartido: dividir por "
        "{scale}, {mask}, temperatura {temperature} (se cambian en el constructor)."
    ),
    "mh.mask.on": "con máscara causal",
    "mh.mask.off": "sin máscara",
    "mh.source.x": "Los vectores de entrada x {shape}",
    # how many heads
    "mh.h.title": "2. ¿Cuántas cabezas?",
    "mh.h": "Cabezas (h)",
    "mh.h_help": "h tiene que dividir a d_model = {d_model}, para que cada cabeza tenga la misma cantidad de columnas.",
    "mh.preset": "Matrices de las cabezas",
    "mh.preset.designed": "Diseñadas: una tarea por cabeza",
    "mh.preset.random": "Al azar, con semilla",
    "mh.preset.scenario": "Cabeza 1 = las W del escenario, las demás al azar",
    "mh.seed": "Semilla",
    "mh.h.sizes": (
        "Con h = {h} y d_model = {d_model}, cada cabeza trabaja con **d_k = d_v = {d_model} / {h} = {d_k}** "
        "columnas: sus W_Q, W_K y W_V son de {d_model} × {d_k}."
    ),
    "mh.cost.body": (
        "¿Más cabezas cuestan más? No: las W de las h cabezas, una al lado de la otra, tienen el mismo tamaño "
        "que las de una cabeza grande de d_k = d_model. Cada cabeza calcula n² scores de d_model / h productos:"
    ),
    "mh.cost.col.what": "cuenta",
    "mh.cost.col.one": "1 cabeza, d_k = {d_k}",
    "mh.cost.col.many": "{h} cabezas, d_k = {d_k}",
    "mh.cost.projections": "multiplicaciones en x·W_Q, x·W_K, x·W_V",
    "mh.cost.scores": "multiplicaciones en los scores Q·Kᵀ",
    "mh.cost.weighted_sums": "multiplicaciones en las sumas ponderadas",
    "mh.cost.output_projection": "multiplicaciones en Concat · W_O",
    "mh.cost.multiply_adds": "multiplicaciones en total",
    "mh.cost.exponentials": "exponenciales del softmax",
    "mh.cost.parameters": "números en W_Q, W_K, W_V y W_O",
    "mh.cost.reading.one": (
        "Con h = 1, la única cabeza es la cabeza sola, d_k = {d_k} = d_model = {d_model}: {n2} scores de {d_k} "
        "productos, {n2} × {d_k} = {scores} multiplicaciones, y {one_exp} exponenciales ({many_exp} con h = 1)."
    ),
    "mh.cost.reading.other": (
        "Las {n} cabezas calculan {n2} scores cada una, de {d_k} productos: {n} × {n2} × {d_k} = {scores} "
        "multiplicaciones, las mismas que los {n2} scores de {d_model} productos de una sola cabeza "
        "({n2} × {d_model} = {scores}). Lo único que crece con h es el softmax: {one_exp} exponenciales con una "
        "cabeza, {many_exp} con {n}, poco al lado de las multiplicaciones."
    ),
    "mh.refused.count": (
        "No hay cabezas diseñadas para h = {h} con esta entrada: cada cabeza necesita por lo menos dos "
        "columnas. Hay para h = {supported}."
    ),
    "mh.refused.sentence": (
        "Las cabezas diseñadas necesitan a «{subject}» y a uno de los verbos {verbs} entre los tokens (una de "
        "ellas lleva los verbos a su sujeto)."
    ),
    "mh.refused.rank.one": (
        "Las cabezas diseñadas necesitan entre 2 y d_model tokens con vectores linealmente independientes "
        "(acá hay 1 token y d_model = {d_model}): solo así x·W puede dar cualquier Q y K que se elija."
    ),
    "mh.refused.rank.other": (
        "Las cabezas diseñadas necesitan entre 2 y d_model tokens con vectores linealmente independientes "
        "(acá hay {n} tokens y d_model = {d_model}): solo así x·W puede dar cualquier Q y K que se elija."
    ),
    "mh.refused.instead": "Abajo se muestran cabezas al azar (semilla 0); probá con la frase de la lección.",
    "mh.error": "Con estos números la cuenta no se puede hacer ({code}): probá con valores más chicos.",
    # the heads side by side
    "mh.part.heads": "3. Las cabezas",
    "mh.part.concat": "4. Concat y W_O",
    "mh.part.residual": "5. El residual",
    "mh.part.compare": "6. Una cabeza grande o h chicas",
    "mh.heads.body": (
        "Cada cabeza calcula sus propios scores, su propio softmax y su propia suma ponderada, exactamente "
        "como en el paso a paso. Estos son sus pesos, todos en la misma escala de 0 a 1: fila = quién "
        "pregunta, columna = a quién mira."
    ),
    "mh.heads.figure": "Pesos de cada cabeza",
    "mh.heads.caption": "Pasá el mouse por una celda: su score, la división y el peso.",
    "mh.head": "cabeza {k}",
    "mh.measured.title": "Qué hace cada cabeza, medido",
    "mh.measured.body": "Leído de los pesos, no declarado: a qué token le da más peso cada fila, la **entropía** de cada fila (0 = todo el peso en un token; ln {n} = {max_entropy} = repartido parejo entre los {n}) y cómo reparte cada cabeza, con la regla del experimento √d_k: «saturada» si el peso máximo medio pasa de {sat}, «plana» si los tokens efectivos pasan del {flat} de n, si no «equilibrada» (sin contar las filas a las que la máscara deja un solo token).",
    "mh.measured.col.head": "cabeza",
    "mh.measured.col.built": "hecha para",
    "mh.measured.col.rows": "filas que lo cumplen",
    "mh.measured.col.does": "lo que hace (medido)",
    "mh.measured.col.entropy": "entropía media",
    "mh.measured.col.peak": "cómo reparte (peso máximo medio)",
    "mh.measured.peak": "{word} ({weight})",
    "mh.measured.rows": "{hits} de {n}",
    "mh.top.col.token": "token",
    "mh.top.cell": "{token} · {weight}",
    "mh.top.even": "reparte ({weight} c/u)",
    "mh.top.forced": "solo {token}: lo impone la máscara",
    "mh.top.caption": (
        "Cada celda: el token al que esa fila le da más peso, y cuánto. Una fila «mira» a un token cuando le da "
        "por lo menos {focus} de su peso; por debajo, la fila reparte."
    ),
    "mh.job.previous": "cada token mira al anterior (el primero, a sí mismo)",
    "mh.job.self": "cada token se mira a sí mismo",
    "mh.job.previous.masked": "cada token mira al anterior; el primero no tiene anterior y la máscara lo deja solo consigo",
    "mh.job.self.masked": "cada token se mira a sí mismo; al primero se lo impone la máscara, que lo deja solo consigo",
    "mh.job.one_token": "todos miran a «{token}»",
    "mh.job.spread": "ninguna fila se concentra: todas reparten su peso",
    "mh.job.look": "«{q}» → «{k}» ({weight})",
    "mh.job.mixed": "cada fila se concentra en un token: {looks}",
    "mh.job.mixed_rest": "{looks}; las demás filas reparten su peso",
    "mh.quoted": "«{token}»",
    "mh.and": " y ",
    "mh.or": " o ",
    "mh.built.previous": "mirar al token anterior",
    "mh.built.subject": "llevar {verbs} a su sujeto «{subject}»",
    "mh.built.self": "mirarse a sí mismo",
    "mh.built.first": "mirar al primer token",
    "mh.construction.title": "Cómo se construyeron las cabezas diseñadas",
    "mh.construction.body": (
        "Nadie escribió estos números a mano: para cada cabeza se eligen primero las queries Q* y las keys K* "
        "que su tarea necesita (en sus d_k columnas), y después se despejan las matrices.\n\n"
        "- **Mirar al anterior** y **mirarse a sí mismo**: los tokens se ubican en un círculo, separados por un "
        "ángulo ω = 2π/n. La key del token j apunta al ángulo ωj; la query del token i, al ángulo de su "
        "objetivo (i − 1, o i). Así q_i · k_j es máximo justo en el objetivo.\n"
        "- **El sujeto**: solo los verbos tienen query (en la dirección e₁) y solo «perro» tiene key en esa "
        "dirección; las demás queries son 0, así que esas filas reparten parejo.\n"
        "- **El primer token**: todas las queries apuntan a e₁ y solo la key del primer token también.\n"
        "- Después se despeja W_Q = x⁺ · Q* y W_K = x⁺ · K*, con x⁺ la pseudoinversa de x. Si las filas de x son "
        "linealmente independientes, x · x⁺ = I y x · W_Q da exactamente las queries elegidas (por eso hacen "
        "falta a lo sumo d_model tokens: 7 tokens, d_model = 8).\n"
        "- La nitidez c agranda queries y keys lo justo para que, dividiendo por √d_k y con T = 1, el token "
        "buscado se lleve por lo menos {top} del peso de su fila.\n"
        "- W_V es la identidad partida en cabezas: cada cabeza pasa sus propias d_k columnas de x."
    ),
    "mh.construction.sharpness": "Nitidez de cada cabeza con esta entrada: {values}.",
    # one head in detail
    "mh.detail.title": "Una cabeza de cerca",
    "mh.detail.head": "Cabeza",
    "mh.detail.qkv": "W_Q, W_K, W_V y Q, K, V de la {head}",
    "mh.detail.cell": "La cuenta de una celda de la {head}: cuánto mira «{q}» a «{k}».",
    "mh.detail.masked": "La máscara causal tapa esta celda: «{q}» no puede mirar a «{k}», que viene después. Su peso es 0.",
    "mh.detail.row": "El softmax de toda la fila de «{q}» en la {head}:",
    "mh.detail.weight": "En la {head}, «{q}» le da a «{k}» un peso de **{weight}**.",
    # concat and W_O
    "mh.concat.body": (
        "Cada cabeza devuelve una salida de n × d_v. Se ponen una al lado de la otra (la concatenación) y una "
        "matriz más, **W_O**, mezcla lo que trajo cada cabeza y lo lleva de vuelta a d_model columnas, el "
        "tamaño de x."
    ),
    "mh.concat.shapes": "Concat {concat} · W_O {w_o} = MultiHead(x) {out}",
    "mh.col": "c{k}·d{j}",
    "mh.concat.figure": "Concat(cabeza 1, …, cabeza h) {shape}",
    "mh.output.figure": "MultiHead(x) = Concat · W_O {shape}",
    "mh.w_o.body": (
        "W_O tiene una fila por columna de la concatenación y d_model columnas. En un modelo entrenado se "
        "aprende; acá podés elegir una que no mezcla nada (1 en la diagonal) o una al azar, y editar sus celdas."
    ),
    "mh.w_o.kind": "W_O",
    "mh.w_o.kind.identity": "Identidad: no mezcla nada",
    "mh.w_o.kind.random": "Al azar, con semilla",
    "mh.w_o.edit": "Editar W_O {shape}",
    "mh.w_o.identity_reading": (
        "Con esta W_O, MultiHead(x) es la concatenación tal cual: el bloque de columnas de cada cabeza es lo "
        "que juntó esa cabeza."
    ),
    # the residual
    "mh.residual.body": (
        "La salida no reemplaza a x: **se le suma**. Cada token conserva su propio vector y la atención le "
        "agrega lo que juntó de los demás. Por eso W_O devuelve d_model columnas: para poder sumarse a x."
    ),
    "mh.output.short": "MultiHead(x)",
    "mh.residual.short": "x + MultiHead(x)",
    "mh.ln.toggle": "Aplicar layer norm después del residual",
    "mh.ln.help": "Los Transformers normalizan cada fila después de sumar: media 0 y varianza 1.",
    "mh.ln.body": (
        "Layer norm toma cada fila r de x + MultiHead(x) (sus {d_model} números), le resta su media μ y la "
        "divide por su desvío, con un ε = {eps} que evita dividir por 0. Esta versión no tiene la ganancia ni "
        "el sesgo que un modelo aprende."
    ),
    "mh.ln.figure": "LayerNorm(x + MultiHead(x)) {shape}",
    "mh.cos.title": "¿Qué tan distintos quedan los tokens?",
    "mh.cos.body.collapsed": (
        "El paso a paso terminó con una advertencia: con una sola cabeza, las salidas de los tokens eran casi el "
        "mismo vector (el coseno entre cualquier par es por lo menos {cosine}). El coseno entre dos filas lo mide: "
        "1 = misma dirección, 0 = nada en común."
    ),
    "mh.cos.body.plain": (
        "¿Cuánto se parecen entre sí las filas de los tokens en cada etapa? Lo mide el coseno entre dos filas: "
        "1 = misma dirección, 0 = nada en común."
    ),
    "mh.cos.one_token": "Con un solo token no hay pares que comparar.",
    "mh.cos.figure": "Coseno entre las filas de cada token",
    "mh.cos.x": "x",
    "mh.cos.single.walk": "una cabeza (la del paso a paso)",
    "mh.cos.single.merged": "una cabeza con las W de todas juntas",
    "mh.cos.single.short": "1 cabeza",
    "mh.cos.norm.short": "LayerNorm(…)",
    "mh.cos.multi": "MultiHead(x)",
    "mh.cos.residual": "x + MultiHead(x)",
    "mh.cos.norm": "LayerNorm(x + MultiHead(x))",
    "mh.cos.col.stage": "filas de",
    "mh.cos.col.mean": "coseno medio entre pares",
    "mh.cos.col.lowest": "coseno más bajo",
    "mh.cos.reading.one": (
        "Coseno medio entre los tokens: {single} con {single_name}, {multi} con la única cabeza, "
        "{residual} en x + MultiHead(x) y {x} en x solo."
    ),
    "mh.cos.reading.other": (
        "Coseno medio entre los tokens: {single} con {single_name}, {multi} con las {n} cabezas, "
        "{residual} en x + MultiHead(x) y {x} en x solo."
    ),
    "mh.cos.many_name.one": "la única cabeza",
    "mh.cos.many_name.other": "las {n} cabezas",
    "mh.distinct.many": "Con {many_name} las filas quedan más distintas que con {one_name}: coseno medio {many} contra {one}.",
    "mh.distinct.one": "Con {one_name} las filas quedan más distintas que con {many_name}: coseno medio {one} contra {many}.",
    "mh.distinct.same": "Con {one_name} y con {many_name} las filas quedan igual de parecidas: coseno medio {one}.",
    "mh.distinct.peaks": "Lo que separa las filas es que los pesos elijan: peso máximo medio {one_peak} ({one_word}) con {one_name}, {many_peak} ({many_word}) con {many_name}.",
    "mh.distinct.agree": "Acá la que elige más es también la que deja las filas más distintas.",
    "mh.distinct.disagree": "Acá no coinciden: la que elige más no es la que deja las filas más distintas, porque cuánto se separan también depende de qué values mezcla cada fila.",
    "mh.distinct.heads_add": "Lo que agregan varias cabezas es otra cosa: varios patrones a la vez, cada cabeza mirando a otro lado; acá, ser varias no dejó las filas más distintas.",
    "mh.distinct.heads_add.many": "Lo que agregan varias cabezas es otra cosa: varios patrones a la vez, cada cabeza mirando a otro lado. Ser varias no garantiza filas más distintas: lo que cuenta es cuánto eligen sus pesos y qué values mezclan.",
    "mh.rows.body": "Fila por fila: ¿a qué se parece más x + MultiHead(x), a x o a la salida de la atención? Lo mide el coseno de la suma con cada una; lo explica el largo (‖·‖) de cada una.",
    "mh.rows.col.to_x": "cos(suma, x)",
    "mh.rows.col.to_output": "cos(suma, MultiHead(x))",
    "mh.rows.col.closer": "se parece más a",
    "mh.rows.x": "x",
    "mh.rows.output": "MultiHead(x)",
    "mh.rows.tie": "a las dos por igual",
    "mh.rows.all_x.one": "En la única fila, x + MultiHead(x) se parece más a x que a la salida de la atención.",
    "mh.rows.all_x.other": "En las {n} filas, x + MultiHead(x) se parece más a x que a la salida de la atención: cada token conserva sobre todo lo propio.",
    "mh.rows.all_output.one": "En la única fila, x + MultiHead(x) se parece más a la salida de la atención que a x.",
    "mh.rows.all_output.other": "En las {n} filas, x + MultiHead(x) se parece más a la salida de la atención que a x: en la suma pesa más lo que trajo la atención.",
    "mh.rows.mixed": "En {to_x} de las {n} filas ({x_tokens}) x + MultiHead(x) se parece más a x; en {to_output} ({out_tokens}), más a la salida de la atención.",
    "mh.rows.why": "En una suma de dos vectores, la suma apunta más hacia el más largo: en cada fila gana el de ‖·‖ mayor.",
    # one big head against h small ones
    "mh.compare.one": "Con h = 1 las dos son la misma cabeza: elegí más cabezas para compararlas.",
    "mh.compare.body": (
        "Los mismos números, usados de dos maneras: las W de las h cabezas puestas una al lado de la otra "
        "forman las W de una sola cabeza de d_k = d_model. El score de esa cabeza grande es la suma de los "
        "scores de las chicas:"
    ),
    "mh.compare.random": "(Las W de estas cabezas no forman matrices de d_model × d_model: se comparan W al azar de la semilla elegida).",
    "mh.compare.one_head": "1 cabeza",
    "mh.compare.one_name": "la cabeza grande",
    "mh.compare.many_name": "las {h} chicas",
    "mh.compare.col.heads": "cabezas",
    "mh.compare.col.entropy": "entropía media de los pesos",
    "mh.compare.col.cosine": "coseno medio de MultiHead(x)",
    "mh.compare.does": "La cabeza grande, medida: {does}.",
    "mh.compare.reading": (
        "El costo es el mismo. La diferencia es el softmax: la cabeza grande divide la suma de los {h} scores "
        "por {one_divisor} y hace un solo softmax por fila; las chicas dividen cada una por {many_divisor} y "
        "cada una hace el suyo, así que cada una puede mirar a otro lado."
    ),
    "mh.compare.spreads": (
        "Una sola fila de pesos tiene que conformar a todas: la cabeza grande reparte más (entropía media "
        "{one} contra {many} de las chicas)."
    ),
    "mh.compare.sharper": (
        "Con estos números la cabeza grande se concentra más que las chicas (entropía media {one} contra "
        "{many}), pero en un solo lugar por fila."
    ),
    "mh.summary": (
        "**Para llevarte**\n\n"
        "- Una **cabeza** es una atención completa con sus propias W_Q, W_K y W_V: su propio softmax decide a "
        "quién mira cada token.\n"
        "- **Varias cabezas** miran cosas distintas a la vez (el anterior, el sujeto, a sí mismo); una sola "
        "tendría que promediarlas en un único softmax. Y cuestan lo mismo que una grande: se parte d_model en h.\n"
        "- **W_O** mezcla lo que juntó cada cabeza y lo devuelve al tamaño de x.\n"
        "- **La conexión residual** suma eso a x: cada token conserva lo propio y la atención le agrega "
        "contexto, en vez de reemplazarlo."
    ),
}
