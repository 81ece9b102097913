"""Textos en español rioplatense: para qué sirve la atención (la misma palabra en dos frases) y dónde está este paso."""

STRINGS: dict[str, str] = {
    # the real model: the same word in two sentences
    "ctx.title": "¿Para qué sirve la atención? La misma palabra en dos frases",
    "ctx.body": (
        "La lección dice que la atención convierte «perro» en «perro en esta frase». Acá se mide: la misma palabra "
        "en dos oraciones, y su vector en cada etapa del modelo. Regla para pasar de piezas a palabras: el vector de "
        "una palabra es el **promedio de los vectores de sus piezas** (la regla con la que sentence-transformers "
        "promedia una oración, aplicada a una sola palabra). Etapas: la fila de la tabla de palabras (la misma en "
        "cualquier frase), los embeddings (la fila + la posición, normalizados) y la salida de cada capa."
    ),
    "ctx.open": "Abrí la medición: la misma palabra en dos frases, capa por capa",
    "ctx.word": "La palabra",
    "ctx.pair.a": "Frase 1",
    "ctx.pair.b": "Frase 2",
    "ctx.pair.help": "Dos frases donde la palabra quiere decir cosas distintas.",
    "ctx.control.title": "Par de control: la misma palabra con el mismo sentido",
    "ctx.control.body": (
        "Dos frases donde la palabra quiere decir lo mismo. Los contextos también cambian, así que su vector también "
        "se mueve: el control dice cuánto se mueve por cambiar de frase, sin cambiar de sentido."
    ),
    "ctx.control.a": "Frase de control 1",
    "ctx.control.b": "Frase de control 2",
    "ctx.example.es": "Ejemplo en castellano («banco»)",
    "ctx.example.en": "Ejemplo en inglés («bank»)",
    "ctx.no_word": "Escribí una palabra que esté en las frases.",
    "ctx.not_found": "«{word}» no es una palabra de «{sentence}»: escribila igual en las frases (mayúsculas y signos no cuentan).",
    "ctx.stage.table": "tabla",
    "ctx.stage.embeddings": "embeddings",
    "ctx.stage.layer": "capa {layer}",
    "ctx.series.pair": "las dos frases",
    "ctx.series.control": "el par de control",
    "ctx.figure": "Coseno entre los dos vectores de «{word}», etapa por etapa",
    "ctx.figure.x": "etapa",
    "ctx.figure.y": "coseno",
    "ctx.figure.alt": "El coseno entre los dos vectores de «{word}» en cada etapa, para las dos frases y para el par de control.",
    "ctx.col.stage": "etapa",
    "ctx.col.pair": "coseno, las dos frases",
    "ctx.col.control": "coseno, control",
    "ctx.col.heads": "las cabezas que más le trajeron de las otras palabras (frase 1 y frase 2)",
    "ctx.head": "cabeza {head}: {first} y {second}",
    "ctx.heads.caption": (
        "Lo que trajo una cabeza: el largo de lo que le suma al vector de la palabra desde las otras palabras, "
        "‖Σ a_ij · v_j · W_O‖ sobre las piezas j de las otras palabras (ni la palabra misma ni los tokens "
        "especiales), promediado sobre las piezas de la palabra. Se nombran las dos que más trajeron en las dos "
        "frases juntas."
    ),
    "ctx.vectors.title": "«{sentence}»: primeras {shown} de {d} dimensiones",
    "ctx.vectors.figure": "El vector de la palabra en cada etapa",
    "ctx.reading.same": (
        "«{word}» arranca con las mismas filas de la tabla en las dos frases (coseno {first}); después de la "
        "última capa, el coseno entre sus dos vectores es {pair}."
    ),
    "ctx.reading.split": (
        "«{word}» no se corta en las mismas piezas en las dos frases (coseno en la tabla {first}); después de la "
        "última capa, el coseno entre sus dos vectores es {pair}."
    ),
    "ctx.reading.lower": (
        "En el par de control termina en {control}: el contexto separó los dos vectores del par más que los del "
        "control (más de {margin} de diferencia)."
    ),
    "ctx.reading.close": (
        "En el par de control termina en {control}: la diferencia con el par es de menos de {margin}, así que con "
        "estos números no se ve que el modelo separe los dos sentidos más que dos contextos cualesquiera."
    ),
    "ctx.reading.higher": (
        "En el par de control termina en {control}, más abajo que el par: acá el control se movió más, y estos "
        "números no muestran que el modelo separe los sentidos."
    ),
    "ctx.caveat": (
        "Un coseno dice cuánto se parecen dos vectores, no qué significa cada uno: que el par baje más que el "
        "control es compatible con que el modelo distinga los dos sentidos, no una prueba de que los entienda."
    ),
    # the pipeline: the same token in two sentences, made-up weights
    "pctx.title": "La misma palabra en dos frases",
    "pctx.body": (
        "Lo que hace la atención, con esta misma mecánica: el output de un token es una mezcla de los V de su "
        "frase. Poné la misma palabra en la misma posición de dos frases: entra con el mismo x (mismo embedding, "
        "misma posición), y si sus vecinos son otros, sale con otro output. Con la máscara causal solo cuentan los "
        "vecinos de antes."
    ),
    "pctx.word": "La palabra",
    "pctx.a": "Frase 1",
    "pctx.b": "Frase 2",
    "pctx.not_found": "«{word}» no es un token de «{sentence}».",
    "pctx.col.sentence": "frase",
    "pctx.col.position": "posición",
    "pctx.col.top": "a quién mira más",
    "pctx.vectors": "x y output de «{word}» en las dos frases",
    "pctx.reading.same_x": (
        "«{word}» entra igual a las dos frases (coseno entre los dos x: {x_cos}) y sale distinto (coseno entre "
        "los dos outputs: {out_cos}): lo único que cambió son sus vecinos."
    ),
    "pctx.reading.other_x": (
        "«{word}» no está en la misma posición en las dos frases, así que ya entra distinto (coseno entre los "
        "dos x: {x_cos}, por la codificación posicional); sale con un coseno de {out_cos}. Para ver solo el efecto "
        "de los vecinos, ponela en la misma posición."
    ),
    "pctx.reading.identical_causal": "Con la máscara causal, «{word}» solo mira a los tokens hasta su posición, y en las dos frases son los mismos: sale con el mismo output (coseno {out_cos}). Lo que viene después no le llega.",
    "pctx.reading.identical": "Las dos frases le dan a «{word}» los mismos vecinos: sale con el mismo output (coseno {out_cos}).",
    "pctx.honest": (
        "Ojo: con matrices inventadas esto es **mezcla, no significado**. El output cambia porque promedia otros "
        "V, no porque el modelo sepa qué quiere decir la palabra; eso aparece solo con pesos entrenados (lo mide "
        "la página del modelo real)."
    ),
    "pctx.real_link": "La misma palabra en un modelo entrenado",
    # the question before it
    "q.real_model.same_word": (
        "Antes de ver los números: ¿el vector de «{word}» será el mismo en las dos frases después de la última capa?"
    ),
    "q.pipeline.same_word": "Antes de ver los números: ¿el output de «{word}» será el mismo en las dos frases?",
    "quiz.option.word_mixes_context": "No: la atención le mezcla lo que trae de las otras palabras de cada frase",
    "quiz.option.word_same_vector": "Sí: es la misma palabra, así que tiene un solo vector",
    "quiz.option.word_meaning_lookup": "No: el modelo busca en una lista el significado que corresponde",
    "quiz.option.word_position_only": "Solo si la palabra está en otra posición de la frase",
    "quiz.mistake.one_vector_per_word": (
        "La palabra arranca con una sola fila de la tabla, pero eso es solo la entrada: la atención le suma lo que "
        "trae de las otras palabras, y esas cambian de frase a frase."
    ),
    "quiz.mistake.meaning_lookup": (
        "No hay una lista de significados: el vector cambia porque la atención mezcla las otras palabras. Si eso "
        "separa los sentidos no se da por hecho: se mide."
    ),
    "quiz.mistake.only_position_counts": (
        "La posición también entra, pero no es lo único: con «{word}» en la misma posición, otros vecinos dan "
        "otra mezcla."
    ),
    "quiz.mistake.same_neighbours": (
        "Acá las dos frases le dan a «{word}» los mismos vecinos en el mismo orden, y la misma mezcla da el mismo "
        "vector."
    ),
    "where.title": "Dónde está este paso",
    "where.body": "Self-attention no anda sola: es la primera pieza de un **bloque** que un Transformer repite N veces, una encima de otra. Este es el bloque, de abajo hacia arriba.",
    "where.figure": "El bloque del Transformer: encoder y decoder",
    "where.alt": "Dos columnas de cajas de abajo hacia arriba. Encoder: entrada (embeddings + posición), self-attention de varias cabezas (este paso), suma residual + layer norm, feed-forward, suma residual + layer norm, salida. Decoder: entrada, self-attention con máscara causal, suma residual + layer norm, atención cruzada (lee la salida del encoder), suma residual + layer norm, feed-forward, suma residual + layer norm, salida. Líneas punteadas: cada residual salta su subcapa.",
    "where.encoder": "Encoder",
    "where.decoder": "Decoder",
    "where.box.inputs": "embeddings + posición",
    "where.box.attention": "self-attention (varias cabezas)",
    "where.box.masked_attention": "self-attention con máscara causal",
    "where.box.cross_attention": "atención cruzada (K, V: del encoder)",
    "where.box.add_norm": "x + subcapa → layer norm",
    "where.box.feed_forward": "feed-forward (por token)",
    "where.box.output": "salida",
    "where.repeat": "× N capas",
    "where.here": "este paso →",
    "where.boxes": "- **Self-attention**: lo de esta app; cada token junta lo que trae de los otros.\n- **Residual + layer norm**: la salida se suma a lo que entró (las líneas punteadas) y cada fila se normaliza, como en la parte 5 de «Varias cabezas».\n- **Feed-forward**: dos multiplicaciones por matrices con una no linealidad entre ellas, **a cada token por separado**: acá ningún token mira a otro.\n- Otra suma residual y otra layer norm, y el resultado entra al bloque siguiente.",
    "where.encoder_decoder": "**Encoder contra decoder.** Un encoder lee una oración entera de una vez: cada token mira a todos, los de antes y los de después (BERT, o el modelo de la página «Un modelo real»). Un decoder **genera** texto de a un token: su self-attention lleva máscara causal, y entre medio tiene una atención cruzada cuyas queries salen del decoder y cuyas keys y values salen de la salida del encoder (en un traductor). Un modelo como GPT es solo la columna del decoder, sin la atención cruzada.",
    "where.mask": "**Por qué el decoder necesita la máscara causal.** Al generar, el token siguiente todavía no existe: el token i solo puede mirar a los tokens 1 … i. Al entrenar, el decoder ve la frase entera y aprende a predecir cada token con los anteriores; sin la máscara, cada posición podría copiar la respuesta del token que viene después, y lo que aprende no serviría para generar. La máscara pone −∞ en los scores de los tokens futuros antes del softmax, así su peso es exactamente 0 (probala con el interruptor «Máscara causal» del constructor).",
    "where.real_model": "El modelo de la página «Un modelo real» es un **encoder**: no usa máscara causal, y cada pieza mira a todas las de la oración, también a las que vienen después.",
    "where.mask_link": "¿Para qué sirve la máscara causal? (al final de «Varias cabezas»)",
    "where.mask_caption": "La usa un decoder, que genera texto. El modelo real de esta app es un encoder: no la usa.",
}
