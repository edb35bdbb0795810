"""Transformer workloads for scripts/gen_workloads.py (which imports this module and writes the files).

BERT-base (128 tokens), GPT-2 small prefill (128 tokens) and one decode step (KV cache of 127 tokens),
ViT-B/16 (224x224), Whisper tiny's encoder (30 s of audio) and one Llama-3-8B decoder layer (128 tokens).

They are built the way `ergon import onnx` lowers an exported transformer (docs/workloads.md, "Importing
real models"), so that shipped and imported models are modelled alike:
  - a product with constant weights over S tokens is a 1x1 `conv` over [K, S, 1] (tokens down the height),
    an `fc` when S = 1; a fused QKV projection is one conv whose output three `slice` layers split;
  - Q K^T and scores x V are `matmul` layers with `groups` = heads (`a` is [heads x K, S, 1]);
  - the scores are scaled by 1/sqrt(head size) (`elementwise` div, 1 op per element), masked where the
    model masks (1 op), then a softmax (3 ops per element); LayerNorm is `elementwise` with 5 ops per
    element, RMSNorm 4, rotary embedding 3 (on Q and K); GELU and SiLU are `activation` layers (applied as
    the producer writes back); residuals are `add`, SwiGLU's gate x up a `mul`;
  - embedding lookups are `layout` (gather, free); a learned or sinusoidal position table added to the
    tokens is an `elementwise` add (1 op per element); reshapes, transposes and KV-cache concatenation
    are `layout` too.
Parameters follow the project's convention: weights and biases of conv/fc; the embedding tables (gathered
or added) and the normalisations' scale and shift (element-wise layers) carry none. Each network's header
states what is in and out and the arithmetic from the published figures (tests/data/workload_literature.yaml).

Each builder takes the Net class of gen_workloads.py (so that this module needs no import of it).
"""

from __future__ import annotations

LN_OPS = 5  # LayerNormalization: mean, variance, normalise, scale, shift
RMS_OPS = 4  # RMS normalisation: square, mean, normalise, scale
SOFTMAX_OPS = 3  # exp, sum, divide
ROPE_OPS = 3  # x cos + rotate(x) sin


def linear(n, name, x, outputs, bias=True):
    """A product with constant weights over the tokens of x ([K, S, 1]): a 1x1 conv, or an fc for one token."""
    _, rows, width = n.shape[x]
    if width != 1:
        raise ValueError(f"{n.name}: {name}: tokens must lie down the height, got {n.shape[x]}")
    if rows == 1:
        return n.fc(name, x, outputs, bias=bias)
    return n.conv(name, x, outputs, 1, bias=bias)


def norm(n, name, x, ops=LN_OPS):
    function = "layernormalization" if ops == LN_OPS else "rmsnormalization"
    return n.elementwise(name, x, function, ops)


def attention_core(n, p, q, keys, values, heads, head_size, mask=None):
    """softmax(mask(Q K^T / sqrt(d))) V for q [heads x d, Sq, 1] and keys/values holding heads x d x Skv values."""
    positions = n.shape[keys][0] * n.shape[keys][1] // (heads * head_size)
    scores = n.matmul(f"{p}.scores", q, keys, positions, groups=heads)
    x = n.elementwise(f"{p}.scale", scores, "div")
    if mask is not None:
        x = n.elementwise(f"{p}.mask", x, mask)
    probs = n.elementwise(f"{p}.softmax", x, "softmax", SOFTMAX_OPS)
    return n.matmul(f"{p}.context", probs, values, head_size, groups=heads)


# ---------------------------------------------------------------------------
# BERT-base
# ---------------------------------------------------------------------------

def bert_base(Net):
    tokens, d, heads, ffn, layers = 128, 768, 12, 3072, 12
    n = Net("bert_base",
            "Devlin, Chang, Lee, Toutanova, 'BERT: Pre-training of Deep Bidirectional Transformers for Language "
            "Understanding', NAACL 2019 (arXiv:1810.04805), BERT-base (L=12, H=768, A=12); layer structure of "
            "Hugging Face transformers BertModel with the google-bert/bert-base-uncased config (intermediate 3072, "
            "GELU, post-LayerNorm); 128 tokens, pooler included, no task head",
            ["BERT-base (Devlin et al. 2019; google-bert/bert-base-uncased config.json: hidden 768, 12 layers,",
             "12 heads, intermediate 3072, vocabulary 30522, 512 positions, 2 token types), one sequence of 128",
             "tokens (no padding), as transformers' BertModel runs it in eager mode:",
             "  embeddings: word lookup (a gather: layout) + position and token-type rows (one element-wise layer,",
             "  2 ops per element), LayerNorm; 12 post-LN encoder layers: Q, K, V, output projections (1x1 convs",
             "  over [768, 128, 1]), scores Q K^T (matmul, 12 groups), / sqrt(64), + the (all-zero) extended",
             "  attention mask, softmax, x V, residual, LayerNorm, FFN 3072 with GELU, 768, residual, LayerNorm;",
             "  pooler: dense 768 + tanh on the [CLS] token. No MLM/NSP or task head.",
             "Parameters in this project's convention: 109,482,240 (BertModel) - 23,835,648 (word, position and",
             "token-type tables) - 38,400 (25 LayerNorms' scale and shift) = 85,608,192."])
    ids = n.input("input_ids", [1, tokens, 1], comment="token ids, one per row")
    x = n.layout("embeddings.word", ids, [d, tokens, 1], "gather: word embeddings (30522 x 768 table)")
    x = n.elementwise("embeddings.sum", x, "add", 2,
                      comment="+ position rows + token-type rows (constant tables, indexed)")
    x = norm(n, "embeddings.layernorm", x)
    for i in range(layers):
        p = f"layer{i}"
        q = linear(n, f"{p}.attention.query", x, d)
        k = linear(n, f"{p}.attention.key", x, d)
        v = linear(n, f"{p}.attention.value", x, d)
        c = attention_core(n, f"{p}.attention", q, k, v, heads, d // heads, mask="add")
        o = linear(n, f"{p}.attention.output", c, d)
        x = norm(n, f"{p}.attention.layernorm", n.add(f"{p}.attention.residual", [o, x]))
        f = n.act(f"{p}.intermediate.gelu", linear(n, f"{p}.intermediate", x, ffn), "gelu")
        o = linear(n, f"{p}.output", f, d)
        x = norm(n, f"{p}.output.layernorm", n.add(f"{p}.output.residual", [o, x]))
    cls = n.layout("pooler.cls", x, [d, 1, 1], "gather: the [CLS] token")
    n.fc("pooler.dense", cls, d, activation="tanh")
    return n


# ---------------------------------------------------------------------------
# GPT-2 small: prefill and one decode step
# ---------------------------------------------------------------------------

GPT2 = dict(d=768, heads=12, ffn=3072, layers=12, vocab=50257)
GPT2_SOURCE = ("Radford, Wu, Child, Luan, Amodei, Sutskever, 'Language Models are Unsupervised Multitask Learners', "
               "OpenAI 2019; GPT-2 small as released (openai-community/gpt2 config.json: n_embd 768, n_layer 12, "
               "n_head 12, n_positions 1024, vocab 50257, MLP 4 x 768, pre-LayerNorm), layer structure of Hugging "
               "Face transformers GPT2LMHeadModel, LM head tied to the token embedding")
GPT2_PARAMS = ["Parameters in this project's convention: 124,439,808 (GPT2LMHeadModel, LM head tied to the token",
               "table, counted once here as the LM head's weights) - 786,432 (position table) - 38,400 (25",
               "LayerNorms' scale and shift) = 123,614,976."]


def gpt2_block(n, p, x, past=None, causal=True):
    """One pre-LN GPT-2 block over x [768, S, 1]; past = (keys, values) inputs of the KV cache, or None."""
    d, heads, ffn = GPT2["d"], GPT2["heads"], GPT2["ffn"]
    h = norm(n, f"{p}.ln_1", x)
    qkv = linear(n, f"{p}.attn.c_attn", h, 3 * d)
    q = n.slice(f"{p}.attn.q", qkv, 0, d)
    k = n.slice(f"{p}.attn.k", qkv, d, 2 * d)
    v = n.slice(f"{p}.attn.v", qkv, 2 * d, 3 * d)
    if past is not None:
        past_k, past_v = past
        total = n.shape[past_k][1] + n.shape[k][1]
        k = n.layout(f"{p}.attn.keys", [past_k, k], [d, total, 1], "concat: past keys and the new one (KV cache)")
        v = n.layout(f"{p}.attn.values", [past_v, v], [d, total, 1],
                     "concat: past values and the new one (KV cache)")
    c = attention_core(n, f"{p}.attn", q, k, v, heads, d // heads, mask="where" if causal else None)
    o = linear(n, f"{p}.attn.c_proj", c, d)
    x = n.add(f"{p}.attn.residual", [o, x])
    h = norm(n, f"{p}.ln_2", x)
    f = n.act(f"{p}.mlp.gelu", linear(n, f"{p}.mlp.c_fc", h, ffn), "gelu")
    o = linear(n, f"{p}.mlp.c_proj", f, d)
    return n.add(f"{p}.mlp.residual", [o, x])


def gpt2_prefill(Net):
    tokens, d = 128, GPT2["d"]
    n = Net("gpt2_prefill",
            GPT2_SOURCE + "; prefill of a 128-token prompt: causal attention as the full Q K^T product, LM head "
            "on the last position",
            ["GPT-2 small (124M), prefill: a 128-token prompt through the 12 blocks (their K and V become the",
             "KV cache) and the LM head on the last position, whose logits give the first new token.",
             "  wte lookup (gather: layout) + wpe rows (element-wise add); 12 pre-LN blocks: LayerNorm, c_attn",
             "  (one 1x1 conv of 2304 filters, sliced into Q, K, V), scores Q K^T over all 128 x 128 positions",
             "  (matmul, 12 groups) as exporters run causal attention, / sqrt(64), causal mask (where), softmax,",
             "  x V, c_proj, residual; LayerNorm, MLP 3072 with GELU, 768, residual; final LayerNorm on every",
             "  position; LM head 768 x 50257 (no bias) on the last one. An export of GPT2LMHeadModel computes",
             "  the LM head on all 128 positions (127 x 38.6 M MACs more) whose logits generation discards.",
             ] + GPT2_PARAMS)
    ids = n.input("input_ids", [1, tokens, 1], comment="token ids, one per row")
    x = n.layout("wte", ids, [d, tokens, 1], "gather: token embeddings (50257 x 768 table)")
    x = n.elementwise("wpe", x, "add", comment="+ position rows 0-127 (1024 x 768 table)")
    for i in range(GPT2["layers"]):
        x = gpt2_block(n, f"h{i}", x)
    x = norm(n, "ln_f", x)
    last = n.layout("last_position", x, [d, 1, 1], "gather: the last position's hidden state")
    n.fc("lm_head", last, GPT2["vocab"], bias=False, comment="tied to wte")
    return n


def gpt2_decode(Net):
    past, d = 127, GPT2["d"]
    n = Net("gpt2_decode",
            GPT2_SOURCE + "; one decode step: 1 new token, a KV cache of 127 past tokens read as inputs "
            "(attention over 128 positions), LM head included",
            ["GPT-2 small (124M), one decode step: the token generated last (position 127) through the 12",
             "blocks with a KV cache of the 127 earlier tokens, then the LM head: every weight is read once for",
             "one token (about 1 MAC per weight), so the step streams its weights from DRAM.",
             "  wte lookup (gather: layout) + wpe row 127 (element-wise add); 12 pre-LN blocks: LayerNorm, c_attn",
             "  (an fc of 2304 outputs, sliced into Q, K, V), the new K and V appended to the block's cache",
             "  (inputs past_key/past_value [768, 127, 1], concatenated along the sequence: layout), scores",
             "  q K^T over 128 positions (matmul, 12 groups), / sqrt(64), softmax (no mask: the newest token sees",
             "  every position), x V, c_proj, residual; LayerNorm, MLP 3072 with GELU, 768, residual; final",
             "  LayerNorm; LM head 768 x 50257 (no bias; tied to wte). The cache inputs are feature maps produced",
             "  by earlier steps (intermediate: stored in DRAM like any activation); the new K and V rows are",
             "  written back as the c_attn output.",
             ] + GPT2_PARAMS)
    ids = n.input("input_ids", [1, 1, 1], comment="the newest token's id")
    x = n.layout("wte", ids, [d, 1, 1], "gather: token embedding (50257 x 768 table)")
    x = n.elementwise("wpe", x, "add", comment="+ position row 127 (1024 x 768 table)")
    for i in range(GPT2["layers"]):
        cache = (n.input(f"h{i}.past_key", [d, past, 1], intermediate=True),
                 n.input(f"h{i}.past_value", [d, past, 1], intermediate=True))
        x = gpt2_block(n, f"h{i}", x, past=cache, causal=False)
    x = norm(n, "ln_f", x)
    n.fc("lm_head", x, GPT2["vocab"], bias=False, comment="tied to wte")
    return n


# ---------------------------------------------------------------------------
# ViT-B/16
# ---------------------------------------------------------------------------

def vit_b_16(Net):
    d, heads, ffn, layers, patches = 768, 12, 3072, 12, 14 * 14
    n = Net("vit_b_16",
            "Dosovitskiy et al., 'An Image is Worth 16x16 Words: Transformers for Image Recognition at Scale', "
            "ICLR 2021, Table 1 ViT-Base (12 layers, hidden 768, MLP 3072, 12 heads) with 16x16 patches, as "
            "torchvision.models.vit_b_16 (3x224x224, class token, 197 tokens, 1000 classes)",
            ["ViT-B/16, torchvision.models.vit_b_16, 3x224x224 input:",
             "  conv_proj (16x16 stride 16, 768 filters) -> 14 x 14 patches, flattened to 196 tokens and the",
             "  class token prepended (layouts): [768, 197, 1]; + learned position embedding (element-wise add);",
             "  12 pre-LN encoder blocks: LayerNorm, in_proj (one 1x1 conv of 2304 filters, sliced into Q, K, V),",
             "  scores Q K^T (matmul, 12 groups) / sqrt(64), softmax, x V, out_proj, residual; LayerNorm, MLP",
             "  3072 with GELU, 768, residual; final LayerNorm; head (768 x 1000) on the class token.",
             "Parameters in this project's convention: 86,567,656 (torchvision num_params) - 768 (class token) -",
             "151,296 (position embedding 197 x 768) - 38,400 (25 LayerNorms' scale and shift) = 86,377,192."])
    image = n.input("image", [3, 224, 224])
    x = n.conv("conv_proj", image, d, 16, stride=16)
    x = n.layout("patches", x, [d, patches, 1], "flatten: 14 x 14 patches to 196 tokens")
    x = n.layout("class_token", x, [d, patches + 1, 1], "concat: the learned class token before the patches")
    x = n.elementwise("pos_embedding", x, "add", comment="+ learned position embedding (197 x 768)")
    for i in range(layers):
        p = f"encoder_layer_{i}"
        h = norm(n, f"{p}.ln_1", x)
        qkv = linear(n, f"{p}.self_attention.in_proj", h, 3 * d)
        q = n.slice(f"{p}.self_attention.q", qkv, 0, d)
        k = n.slice(f"{p}.self_attention.k", qkv, d, 2 * d)
        v = n.slice(f"{p}.self_attention.v", qkv, 2 * d, 3 * d)
        c = attention_core(n, f"{p}.self_attention", q, k, v, heads, d // heads)
        o = linear(n, f"{p}.self_attention.out_proj", c, d)
        x = n.add(f"{p}.attention_residual", [o, x])
        h = norm(n, f"{p}.ln_2", x)
        f = n.act(f"{p}.mlp.gelu", linear(n, f"{p}.mlp.0", h, ffn), "gelu")
        o = linear(n, f"{p}.mlp.3", f, d)
        x = n.add(f"{p}.mlp_residual", [o, x])
    x = norm(n, "ln", x)
    cls = n.layout("cls", x, [d, 1, 1], "gather: the class token")
    n.fc("heads.head", cls, 1000)
    return n


# ---------------------------------------------------------------------------
# Whisper tiny, encoder
# ---------------------------------------------------------------------------

def whisper_tiny_encoder(Net):
    d, heads, ffn, layers, mels, frames = 384, 6, 1536, 4, 80, 3000
    tokens = frames // 2
    n = Net("whisper_tiny_encoder",
            "Radford, Kim, Xu, Brockman, McLeavey, Sutskever, 'Robust Speech Recognition via Large-Scale Weak "
            "Supervision', ICML 2023 (arXiv:2212.04356), Table 1 tiny (4 layers, width 384, 6 heads); encoder "
            "of openai/whisper-tiny (config.json: 80 mel bins, encoder FFN 1536, 1500 source positions) as "
            "Hugging Face transformers WhisperEncoder runs it on 30 s of audio (80 x 3000 log-mel frames)",
            ["Whisper tiny's audio encoder on 30 s of audio: 80 log-mel bins x 3000 frames (10 ms hop).",
             "  conv1 (kernel 3, padding 1, 384 filters) + GELU, conv2 (kernel 3, stride 2, padding 1) + GELU:",
             "  1500 frames, transposed to tokens (layout) [384, 1500, 1]; + sinusoidal positions (element-wise",
             "  add); 4 pre-LN layers: LayerNorm, Q (bias), K (no bias), V (bias) projections, scores Q K^T",
             "  (matmul, 6 groups of 64) / 8, softmax (no mask), x V, out_proj, residual; LayerNorm, fc1 1536",
             "  with GELU, fc2 384, residual; final LayerNorm. The 1-D convolutions are 1 x 3 convolutions over",
             "  [80, 1, 3000], as the ONNX importer writes a Conv1d. Decoder not included.",
             "Parameters in this project's convention: 8,208,384 (encoder of the 37,760,640-parameter model) -",
             "576,000 (position table 1500 x 384) - 6,912 (9 LayerNorms' scale and shift) = 7,625,472."])
    mel = n.input("input_features", [mels, 1, frames], comment="log-mel spectrogram, frames along the width")
    x = n.act("conv1.gelu", n.conv("conv1", mel, d, [1, 3], padding=[0, 0, 1, 1]), "gelu")
    x = n.act("conv2.gelu", n.conv("conv2", x, d, [1, 3], stride=[1, 2], padding=[0, 0, 1, 1]), "gelu")
    x = n.layout("tokens", x, [d, tokens, 1], "transpose: 1500 frames to tokens")
    x = n.elementwise("embed_positions", x, "add", comment="+ sinusoidal positions (1500 x 384)")
    for i in range(layers):
        p = f"layers.{i}"
        h = norm(n, f"{p}.self_attn_layer_norm", x)
        q = linear(n, f"{p}.self_attn.q_proj", h, d)
        k = linear(n, f"{p}.self_attn.k_proj", h, d, bias=False)
        v = linear(n, f"{p}.self_attn.v_proj", h, d)
        c = attention_core(n, f"{p}.self_attn", q, k, v, heads, d // heads)
        o = linear(n, f"{p}.self_attn.out_proj", c, d)
        x = n.add(f"{p}.self_attn_residual", [o, x])
        h = norm(n, f"{p}.final_layer_norm", x)
        f = n.act(f"{p}.fc1.gelu", linear(n, f"{p}.fc1", h, ffn), "gelu")
        o = linear(n, f"{p}.fc2", f, d)
        x = n.add(f"{p}.mlp_residual", [o, x])
    norm(n, "layer_norm", x)
    return n


# ---------------------------------------------------------------------------
# One Llama-3-8B decoder layer
# ---------------------------------------------------------------------------

def llama_decoder_layer(Net):
    tokens, d, heads, kv_heads, head_size, ffn = 128, 4096, 32, 8, 128, 14336
    share = heads // kv_heads
    n = Net("llama_decoder_layer",
            "Llama 3 Team, 'The Llama 3 Herd of Models', arXiv:2407.21783, Table 3, 8B: 32 layers, model "
            "dimension 4096, FFN 14336, 32 attention heads, 8 key/value heads (meta-llama/Meta-Llama-3-8B "
            "config.json: RMSNorm, RoPE theta 500000, SiLU-gated MLP, no biases); one decoder layer as Hugging "
            "Face transformers LlamaDecoderLayer runs it, prefill of 128 tokens",
            ["One decoder layer of Llama-3-8B (Meta-Llama-3-8B; Llama 3 paper Table 3), 128 tokens of prefill",
             "(causal). The input is the residual stream from the layer before (intermediate).",
             "  RMSNorm; Q (4096), K (1024), V (1024) projections, no biases (1x1 convs over [4096, 128, 1]);",
             "  RoPE on Q and K (element-wise, 3 ops per element); grouped-query attention: the 4 query heads",
             "  that share a KV head are stacked as rows (layout), so scores Q K^T are one matmul of 8 groups",
             "  (128 features) over 4 x 128 rows, each KV head read once (transformers' eager repeat_kv would",
             "  expand K and V to 32 heads: same MACs, 4x the K/V reads); / sqrt(128), causal mask (add),",
             "  softmax, x V (8 groups), heads back to [4096, 128, 1] (layout), o_proj, residual; RMSNorm,",
             "  SwiGLU: gate (14336) with SiLU, up (14336), gate x up (mul), down (4096), residual.",
             "Parameters in this project's convention: (8,030,261,248 (Meta-Llama-3-8B) - 2 x 525,336,576",
             "(embedding table and untied LM head, 128256 x 4096 each) - 4,096 (final RMSNorm)) / 32 layers",
             "= 218,112,000 per layer - 8,192 (its two RMSNorm scales) = 218,103,808."])
    x = n.input("hidden_states", [d, tokens, 1], intermediate=True,
                comment="residual stream from the previous layer")
    h = norm(n, "input_layernorm", x, RMS_OPS)
    q = linear(n, "self_attn.q_proj", h, heads * head_size, bias=False)
    k = linear(n, "self_attn.k_proj", h, kv_heads * head_size, bias=False)
    v = linear(n, "self_attn.v_proj", h, kv_heads * head_size, bias=False)
    q = n.elementwise("self_attn.q_rope", q, "rotary_embedding", ROPE_OPS)
    k = n.elementwise("self_attn.k_rope", k, "rotary_embedding", ROPE_OPS)
    q = n.layout("self_attn.q_groups", q, [kv_heads * head_size, share * tokens, 1],
                 "reshape: the 4 query heads of each KV head as rows")
    c = attention_core(n, "self_attn", q, k, v, kv_heads, head_size, mask="add")
    c = n.layout("self_attn.heads", c, [heads * head_size, tokens, 1], "reshape: 32 heads back to tokens")
    o = linear(n, "self_attn.o_proj", c, d, bias=False)
    x = n.add("attention_residual", [o, x])
    h = norm(n, "post_attention_layernorm", x, RMS_OPS)
    gate = n.act("mlp.act_fn", linear(n, "mlp.gate_proj", h, ffn, bias=False), "swish")
    up = linear(n, "mlp.up_proj", h, ffn, bias=False)
    m = n.mul("mlp.gate_x_up", gate, up)
    o = linear(n, "mlp.down_proj", m, d, bias=False)
    n.add("mlp_residual", [o, x])
    return n


def networks(Net):
    """The builders, each returning a Net of gen_workloads.py."""
    return [lambda build=build: build(Net)
            for build in (bert_base, gpt2_prefill, gpt2_decode, vit_b_16, whisper_tiny_encoder, llama_decoder_layer)]
