"""Every limit and range the app enforces, defined once: the engine checks them, the UI shows them."""

from __future__ import annotations

# --- the editable scenario (walkthrough, builder) ---
MAX_SCENARIO_TOKENS = 16  # tokens in the editable scenario; the pipeline page takes longer sentences
MAX_TOKEN_CHARS = 32  # characters in one token name
D_MODEL_RANGE = (2, 8)  # columns of x
D_K_RANGE = (1, 8)  # columns of W_Q, W_K (d_k) and W_V (d_v)
MAX_ABS_VALUE = 1e6  # larger entries are refused: Q·Kᵀ of such numbers is no longer a readable lesson

# --- options shared by every page that has them ---
TEMPERATURE_RANGE = (0.1, 5.0)
TEMPERATURE_STEP = 0.1
SEED_RANGE = (0, 2**32 - 1)  # what numpy's default_rng takes from a user; one range for every seed input

# --- typed text ---
MAX_SENTENCE_CHARS = 2_000  # the pipeline's sentence, checked before any work is done on it
MAX_TOKENS = 64  # tokens of a sentence that go through attention; the rest are dropped and said so

# --- shared links and uploads ---
MAX_LINK_CHARS = 12_000  # a link's scenario code longer than this is refused before decoding
# An edited scenario's code is kept in the address bar only up to this length: with the rest of the address it
# stays under 8 kB, what many proxies take in a request line (nginx's default). The largest scenarios (16 names
# of 32 rare characters, 320 full-precision numbers) reach about 7,700; one of typed numbers, about 1,100.
MAX_KEPT_CODE_CHARS = 7_000
MAX_JSON_BYTES = 100_000  # a decompressed link or an uploaded file larger than this is refused
MAX_JSON_DEPTH = 8  # nesting deeper than a scenario needs is refused before it is parsed
MAX_NUMBER_CHARS = 40  # a number written with more characters than this (a 400-digit integer) is refused

# --- the scaling page's experiment (random q·k at many d_k) ---
SCALING_D_K_RANGE = (1, 4096)  # each d_k measured; q and k are drawn in chunks, so memory stays bounded
SCALING_SAMPLES_RANGE = (2, 100_000)  # dot products drawn per d_k (the page offers up to 20,000)

# --- a real model's page ---
MAX_MODEL_TOKENS = 64  # pieces (special tokens included) a sentence may have for the real model; more is refused
HUB_TIMEOUT_SECONDS = 5.0  # the hub's answer about one file; offline, a download click is told so within seconds
DOWNLOAD_STALL_SECONDS = 30.0  # a download that receives nothing for this long is cut (what arrived is kept)
DOWNLOAD_CHUNK_BYTES = 1 << 20  # a downloaded file's sha256 is computed a megabyte at a time

# --- questions asked before a step reveals its numbers ---
QUESTION_DECIMALS = 3  # answers and rows of weights are shown to 3 decimals, as the lesson prints them
QUESTION_TOLERANCE = 0.005  # right to 2 decimals (0.5% of the answer when it is larger than 1)
QUESTION_RELATIVE_TOLERANCE = 0.05  # for sizes read off a measurement: the spread of q·k, of a random walk
MAX_OPTIONS = 4  # options of a choice question, the right one included
QUESTION_D_K_RANGE = SCALING_D_K_RANGE  # the scaling page's d_k
QUESTION_WALK_STEPS_RANGE = (1, 100_000)  # steps of the scaling page's random walks

# --- training W_Q and W_K toward a target pattern ---
MAX_TRAINING_STEPS = 1000  # steps in one run, all chunks together: the (n, n) weights of every step are kept
LEARNING_RATE_RANGE = (1e-4, 10.0)
OUTPUT_WEIGHT_RANGE = (0.0, 10.0)  # λ, the weight of the output term in the loss
MAX_STALL_D_K = 256  # d_k of the "without dividing, training stalls" experiment (d_k × d_k weights per step)
