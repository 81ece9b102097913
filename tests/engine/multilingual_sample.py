"""Thousands of sentences in many scripts, made here (seeded), for checking a tokenizer piece for piece.

Three kinds: sentences written in 30 languages; words glued from the real vocabulary's own pieces (XLM-R's 250,002
cover about 100 languages, so these reach every script the model knows, in the spellings it learned); and random
text from many Unicode blocks with the characters a normalizer rewrites or removes (ligatures, full-width and
circled forms, combining marks, zero-width and other spaces, control characters) and the added tokens' own text
(<s>, </s>, <mask>) typed inside words.
"""

from __future__ import annotations

import random

WRITTEN = (
    "el perro come carne porque tiene hambre",
    "the dog ate the meat because it was hungry",
    "¿Quién tiene hambre? ¡El perro, no la carne!",
    "Der Hund frisst das Fleisch, weil er Hunger hat.",
    "Le chien mange la viande parce qu'il a faim.",
    "Il cane mangia la carne perché ha fame.",
    "O cão come a carne porque tem fome.",
    "De hond eet het vlees omdat hij honger heeft.",
    "Hunden äter köttet eftersom den är hungrig.",
    "Pies je mięso, bo jest głodny.",
    "Pes jí maso, protože má hlad.",
    "A kutya megeszi a húst, mert éhes.",
    "Câinele mănâncă carnea pentru că îi este foame.",
    "Köpek acıktığı için eti yiyor.",
    "Собака ест мясо, потому что голодна.",
    "Собака їсть м'ясо, бо голодна.",
    "Кучето яде месото, защото е гладно.",
    "Ο σκύλος τρώει το κρέας επειδή πεινάει.",
    "הכלב אוכל את הבשר כי הוא רעב.",
    "الكلب يأكل اللحم لأنه جائع.",
    "سگ گوشت را می‌خورد چون گرسنه است.",
    "कुत्ता मांस खाता है क्योंकि वह भूखा है।",
    "কুকুরটি মাংস খায় কারণ সে ক্ষুধার্ত।",
    "நாய் பசியாக இருப்பதால் இறைச்சியை சாப்பிடுகிறது.",
    "สุนัขกินเนื้อเพราะมันหิว",
    "Con chó ăn thịt vì nó đói.",
    "犬はお腹が空いているので肉を食べる。",
    "狗吃肉，因为它饿了。",
    "개가 배가 고파서 고기를 먹는다.",
    "ძაღლი ხორცს ჭამს, რადგან მშიერია.",
    "Շունը միս է ուտում, որովհետև քաղցած է։",
    "Mbwa anakula nyama kwa sababu ana njaa.",
    "Koer sööb liha, sest tal on nälg.",
    "Suns ēd gaļu, jo ir izsalcis.",
    "Šuo valgo mėsą, nes yra alkanas.",
    "Ffa fi ’n “comillas” – y guiones — … ½ ¼ № ™ © ®",
    "e-mail: ana@example.org, 3,14 × 10⁻³ ≈ 0,00314; 1º 2ª",
    "ﬁn ﬂor ﬀ Ⅻ ① ② ㈱ ｶﾀｶﾅ ＡＢＣ１２３",
    "A\u0301rbol ca\u0308fe n\u0303and\u00fa",
    "🐶 come 🥩 porque tiene hambre 😋👍🏽👨‍👩‍👧",
)

# Characters from many blocks, as (first, last) code points.
BLOCKS = (
    (0x0021, 0x007E),  # ASCII
    (0x00A0, 0x00FF),  # Latin-1 (with the no-break space and the soft hyphen)
    (0x0100, 0x024F),  # Latin Extended
    (0x0300, 0x036F),  # combining marks
    (0x0370, 0x03FF),  # Greek
    (0x0400, 0x04FF),  # Cyrillic
    (0x0530, 0x058F),  # Armenian
    (0x0590, 0x05FF),  # Hebrew
    (0x0600, 0x06FF),  # Arabic
    (0x0900, 0x097F),  # Devanagari
    (0x0980, 0x09FF),  # Bengali
    (0x0B80, 0x0BFF),  # Tamil
    (0x0E00, 0x0E7F),  # Thai
    (0x10A0, 0x10FF),  # Georgian
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x1E00, 0x1EFF),  # Latin Extended Additional (Vietnamese)
    (0x2000, 0x206F),  # general punctuation: spaces, zero-width characters, bidi marks
    (0x2100, 0x218F),  # letter-like forms and Roman numerals
    (0x2460, 0x24FF),  # enclosed alphanumerics
    (0x3040, 0x30FF),  # Hiragana and Katakana
    (0x3200, 0x32FF),  # enclosed CJK
    (0x4E00, 0x4FFF),  # CJK ideographs
    (0xAC00, 0xAD00),  # Hangul syllables
    (0xFB00, 0xFB4F),  # ligatures
    (0xFF00, 0xFFEF),  # full-width and half-width forms
    (0x1D400, 0x1D4FF),  # mathematical letters
    (0x1F300, 0x1F6FF),  # emoji
)
ODD = ("\u200b", "\u200d", "\ufeff", "\u00ad", "\t", "\n", "\r", "\x00", "\x07", "\u3000", "\u00a0", "\u2028", "  ")
ADDED = ("<s>", "</s>", "<mask>", "<pad>", "<unk>", "<s", "mask>", "</s></s>")


def written() -> list[str]:
    """The sentences written in 30 languages, as typed, lower-cased and upper-cased."""
    return [variant for s in WRITTEN for variant in (s, s.lower(), s.upper())]


def glued_from_pieces(pieces: list[str], count: int, seed: int = 0) -> list[str]:
    """`count` sentences of 1-12 words, each word glued from 1-4 random pieces of the vocabulary (their word-start
    marks taken off), with punctuation now and then."""
    rng = random.Random(seed)
    usable = [p.replace("▁", "") for p in pieces if p.replace("▁", "")]
    sentences = []
    for _ in range(count):
        words = ["".join(rng.choice(usable) for _ in range(rng.randint(1, 4))) for _ in range(rng.randint(1, 12))]
        if rng.random() < 0.3:
            words[-1] += rng.choice(".,;:!?…")
        sentences.append(" ".join(words))
    return sentences


def random_text(count: int, seed: int = 0) -> list[str]:
    """`count` strings of random characters from BLOCKS, with spaces, ODD characters and ADDED tokens' text."""
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randint(1, 30)):
            roll = rng.random()
            if roll < 0.15:
                parts.append(" ")
            elif roll < 0.22:
                parts.append(rng.choice(ODD))
            elif roll < 0.26:
                parts.append(rng.choice(ADDED))
            else:
                first, last = rng.choice(BLOCKS)
                parts.append(chr(rng.randint(first, last)))
        texts.append("".join(parts))
    return texts
