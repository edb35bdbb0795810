"""Small ONNX models built with ONNX's Python helper in the patterns real exporters emit: torch.onnx and
Hugging Face's optimum (Shape-derived reshapes, decomposed LayerNorm and GELU, causal masks sliced from a
table or built at run time, KV caches, optimum's merged decoder with its If), onnxruntime's transformer
optimizer and quantizer (com.microsoft fused operators, QDQ and QOperator int8) and onnxruntime-genai's
builder (GroupQueryAttention, MatMulNBits). Used by test_onnx_patterns.py, which counts their MACs by hand.

Weights are random; only their shapes matter to the import. Node names follow torch.onnx's scoped naming
(`/encoder/layer.0/attention/self/query/MatMul`), so a test can look a lowered layer up by its node's name.
"""
import contextlib
import math

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F32 = TensorProto.FLOAT
I64 = TensorProto.INT64
I32 = TensorProto.INT32
BOOL = TensorProto.BOOL
U8 = TensorProto.UINT8
I8 = TensorProto.INT8
MS = "com.microsoft"
FLOAT_MIN = float(np.finfo(np.float32).min)


class Graph:
    """A graph under construction. node() names each node `<scope>/<Op>` (made unique as torch does, `_1`,
    `_2`, ...) and its outputs `<node>_output_<i>`; weight() names a parameter `<scope dotted>.<name>`, so the
    two branches of an If built from one body share their initializers (held once, in the outer graph)."""

    def __init__(self, name="main_graph", opset=14, domains=None, producer=("pytorch", "2.1.0"), seed=0,
                 ir_version=None):
        self.name = name
        self.opset = opset
        self.domains = dict(domains or {})
        self.producer = producer
        self.ir_version = ir_version or (8 if opset <= 17 else 9 if opset <= 20 else 10)
        self.nodes, self.inputs, self.outputs = [], [], []
        self.inits, self.init_names, self.names = [], set(), set()
        self.prefix = ""
        self.rng = np.random.default_rng(seed)

    # --- structure -------------------------------------------------------------------------------------
    @contextlib.contextmanager
    def scope(self, name):
        saved = self.prefix
        self.prefix = f"{saved}/{name}"
        try:
            yield
        finally:
            self.prefix = saved

    def fresh(self, base):
        name, i = base, 0
        while name in self.names:
            i += 1
            name = f"{base}_{i}"
        self.names.add(name)
        return name

    def input(self, name, dims, dtype=F32):
        self.inputs.append(helper.make_tensor_value_info(name, dtype, dims))
        return name

    def output(self, name, dtype=F32, dims=None):
        self.outputs.append(helper.make_tensor_value_info(name, dtype, dims))
        return name

    def init(self, array, name=None):
        """An initializer holding `array` (shared by name: a second one of the same name is the first)."""
        name = name or self.fresh(f"onnx::Init{self.prefix.replace('/', '.')}")
        if name not in self.init_names:
            self.init_names.add(name)
            self.inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def weight(self, shape, name="weight", dtype=np.float32):
        """A random parameter named after the scope (`encoder.layer.0.attention.self.query.weight`)."""
        full = f"{self.prefix.strip('/').replace('/', '.')}.{name}".strip(".")
        if full in self.init_names:
            held = next(t for t in self.inits if t.name == full)
            if list(held.dims) != list(shape):
                raise ValueError(f"weight {full} is already {list(held.dims)}, not {list(shape)}")
            return full
        if np.issubdtype(dtype, np.integer):
            info = np.iinfo(dtype)
            values = self.rng.integers(max(info.min, -100), min(info.max, 100), size=shape, dtype=dtype)
        else:
            values = (self.rng.standard_normal(shape) * 0.02).astype(dtype)
        return self.init(values, full)

    def node(self, op, inputs, outputs=1, name=None, domain=None, **attrs):
        """Adds a node; returns its output (or the list of them)."""
        name = self.fresh(name or f"{self.prefix}/{op}")
        outs = [f"{name}_output_{i}" for i in range(outputs)] if isinstance(outputs, int) else list(outputs)
        self.nodes.append(helper.make_node(op, list(inputs), outs, name=name, domain=domain, **attrs))
        self.last = name
        return outs[0] if len(outs) == 1 else outs

    def child(self):
        """A graph body (If branch, Loop body) whose names stay unique with this graph's and whose weights
        land in this graph's initializers."""
        body = Graph.__new__(Graph)
        body.__dict__.update(self.__dict__)
        body.nodes, body.inputs, body.outputs = [], [], []
        return body

    def body(self, name, outputs, inputs=()):
        """This child's nodes as a GraphProto: `outputs` and `inputs` are (name, dtype[, dims]) tuples."""
        def info(v):
            return helper.make_tensor_value_info(v[0], v[1], v[2] if len(v) > 2 else None)
        return helper.make_graph(self.nodes, name, [info(v) for v in inputs], [info(v) for v in outputs])

    def model(self):
        graph = helper.make_graph(self.nodes, self.name, self.inputs, self.outputs, self.inits)
        opsets = [helper.make_opsetid("", self.opset)] + [helper.make_opsetid(d, v) for d, v in self.domains.items()]
        model = helper.make_model(graph, opset_imports=opsets, producer_name=self.producer[0],
                                  producer_version=self.producer[1])
        model.ir_version = self.ir_version
        return model

    def save(self, path):
        onnx.save(self.model(), str(path))
        return path

    # --- torch.onnx's shape arithmetic ----------------------------------------------------------------
    def const(self, value, dtype=np.int64):
        """A Constant node, as torch.onnx writes scalars and small shape vectors."""
        return self.node("Constant", [], value=numpy_helper.from_array(np.array(value, dtype=dtype)))

    def fconst(self, value):
        return self.const(value, np.float32)

    def dim(self, x, axis):
        """x.size(axis): Shape, then Gather of a scalar index (a 0-D int64)."""
        return self.node("Gather", [self.node("Shape", [x]), self.const(axis)], axis=0)

    def unsqueeze(self, x, axes):
        if self.opset >= 13:
            return self.node("Unsqueeze", [x, self.const(axes)])
        return self.node("Unsqueeze", [x], axes=axes)

    def squeeze(self, x, axes):
        if self.opset >= 13:
            return self.node("Squeeze", [x, self.const(axes)])
        return self.node("Squeeze", [x], axes=axes)

    def shape_vector(self, parts):
        """A 1-D shape from ints (Constant [v]) and 0-D run-time sizes (Unsqueeze), concatenated."""
        pieces = [self.const([p]) if isinstance(p, int) else self.unsqueeze(p, [0]) for p in parts]
        return self.node("Concat", pieces, axis=0)

    def reshape(self, x, parts):
        return self.node("Reshape", [x, self.shape_vector(parts)])

    def size_with(self, x, end, tail):
        """x.size()[:end] + tail as a 1-D shape: Concat of a Slice of x's Shape and a Constant."""
        return self.node("Concat", [self.slice(self.node("Shape", [x]), [0], [end], [0]), self.const(tail)], axis=0)

    def reshape_const(self, x, dims):
        return self.node("Reshape", [x, self.const(dims)])

    def transpose(self, x, perm):
        return self.node("Transpose", [x], perm=perm)

    def slice(self, x, starts, ends, axes):
        """Slice whose starts and ends may be 1-D run-time tensors or int lists."""
        def vec(v):
            return self.const(v) if isinstance(v, list) else v
        return self.node("Slice", [x, vec(starts), vec(ends), self.const(axes), self.const([1] * len(axes))])

    def reduce_mean(self, x, axes):
        if self.opset >= 18:
            return self.node("ReduceMean", [x, self.const(axes)], keepdims=1)
        return self.node("ReduceMean", [x], axes=axes, keepdims=1)

    def reduce_sum(self, x, axes, keepdims=1):
        return self.node("ReduceSum", [x, self.const(axes)], keepdims=keepdims)

    def expand_like_torch(self, x, parts):
        """torch's expand(batch, -1, -1): the -1s are replaced by 1s at run time (ConstantOfShape, Mul,
        Equal, Where) before the Expand."""
        size = self.shape_vector(parts)
        ones = self.node("ConstantOfShape", [self.const([len(parts)])],
                         value=numpy_helper.from_array(np.array([1], dtype=np.int64)))
        minus = self.node("Mul", [ones, self.const(-1)])
        equal = self.node("Equal", [size, minus])
        size = self.node("Where", [equal, ones, size])
        return self.node("Expand", [x, size])

    # --- layers as torch exports them ------------------------------------------------------------------
    def linear(self, x, k, n, bias=True):
        """nn.Linear on a rank-3 input: MatMul by the transposed weight, then Add(bias, product)."""
        y = self.node("MatMul", [x, self.weight([k, n])])
        if bias:
            y = self.node("Add", [self.weight([n], "bias"), y])
        return y

    def projections(self, sources, parts, k, n, bias=True, each=None):
        """One nn.Linear k -> n per part, each under the part's scope. `sources` is one input for all or one
        per part; a callable source is called inside its part's scope (what it adds is named there).
        `each(part, y)`, if given, follows each projection inside its scope. Returns the list."""
        sources = sources if isinstance(sources, (list, tuple)) else [sources] * len(parts)
        outs = []
        for part, source in zip(parts, sources):
            with self.scope(part):
                y = self.linear(source() if callable(source) else source, k, n, bias)
                outs.append(each(part, y) if each else y)
        return outs

    def conv1d_hf(self, x, nx, nf):
        """Hugging Face's Conv1D (GPT-2): view(-1, nx), addmm (a Gemm), view back to size()[:-1] + (nf,)."""
        size_out = self.size_with(x, -1, [nf])
        flat = self.reshape_const(x, [-1, nx])
        y = self.node("Gemm", [flat, self.weight([nx, nf]), self.weight([nf], "bias")], alpha=1.0, beta=1.0)
        return self.node("Reshape", [y, size_out])

    def conv(self, x, cin, cout, k, stride=1, pad=None, group=1, bias=True, rank=2):
        pad = k // 2 if pad is None else pad
        ins = [x, self.weight([cout, cin // group] + [k] * rank)] + ([self.weight([cout], "bias")] if bias else [])
        return self.node("Conv", ins, kernel_shape=[k] * rank, strides=[stride] * rank, pads=[pad] * (2 * rank),
                         dilations=[1] * rank, group=group)

    def layer_norm(self, x, h, decomposed=None, eps=1e-5):
        """LayerNormalization at opset 17 and later; below it, decomposed as torch.onnx writes it."""
        decomposed = self.opset < 17 if decomposed is None else decomposed
        gamma, beta = self.weight([h]), self.weight([h], "bias")
        if not decomposed:
            return self.node("LayerNormalization", [x, gamma, beta], axis=-1, epsilon=eps)
        # torch.onnx below opset 17: mean, centre, variance, normalise, scale, shift.
        mean = self.reduce_mean(x, [-1])
        centred = self.node("Sub", [x, mean])
        variance = self.reduce_mean(self.node("Pow", [centred, self.fconst(2.0)]), [-1])
        std = self.node("Sqrt", [self.node("Add", [variance, self.fconst(eps)])])
        normed = self.node("Div", [centred, std])
        return self.node("Add", [self.node("Mul", [normed, gamma]), beta])

    def gelu_erf(self, x):
        """torch's exact GELU below opset 20: x * 0.5 * (1 + erf(x / sqrt 2))."""
        erf = self.node("Erf", [self.node("Div", [x, self.fconst(1.4142135)])])
        return self.node("Mul", [self.node("Mul", [x, self.node("Add", [erf, self.fconst(1.0)])]), self.fconst(0.5)])

    def gelu_tanh(self, x):
        """GPT-2's NewGELU: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
        cube = self.node("Mul", [self.fconst(0.044715), self.node("Pow", [x, self.fconst(3.0)])])
        inner = self.node("Mul", [self.fconst(0.7978845608), self.node("Add", [x, cube])])
        gate = self.node("Add", [self.fconst(1.0), self.node("Tanh", [inner])])
        return self.node("Mul", [self.node("Mul", [self.fconst(0.5), x]), gate])

    def silu(self, x):
        return self.node("Mul", [x, self.node("Sigmoid", [x])])

    # --- onnxruntime's fused operators ----------------------------------------------------------------
    def skip_layer_norm(self, y, skip, h, eps, outputs=1):
        """com.microsoft SkipLayerNormalization: LayerNorm(y + skip + bias), its gamma, beta and bias [h]."""
        return self.node("SkipLayerNormalization", [y, skip, self.weight([h], "gamma"), self.weight([h], "beta"),
                                                    self.weight([h], "bias")], outputs=outputs, domain=MS, epsilon=eps)

    def fused_gelu(self, x, k, n, op="BiasGelu"):
        """MatMul by a [k, n] weight, then com.microsoft BiasGelu (or FastGelu) with the [n] bias."""
        return self.node(op, [self.node("MatMul", [x, self.weight([k, n])]), self.weight([n], "bias")], domain=MS)

    def embed_layer_norm(self, ids, segments, vocab, positions, h, segment_table, mask=None):
        """com.microsoft EmbedLayerNormalization: the word, position and segment tables (the last named
        `segment_table`), gamma, beta and, if given, the mask. Returns both outputs (the second the mask_index)."""
        ins = [ids, segments, self.weight([vocab, h], "word_embeddings"),
               self.weight([positions, h], "position_embeddings"), self.weight([2, h], segment_table),
               self.weight([h], "gamma"), self.weight([h], "beta")] + ([mask] if mask else [])
        return self.node("EmbedLayerNormalization", ins, outputs=2, domain=MS, epsilon=1e-12)

    def rms_norm(self, x, h, domain=None):
        """SimplifiedLayerNormalization (RMSNorm) with its [h] scale, in `domain` (None: the ONNX domain)."""
        return self.node("SimplifiedLayerNormalization", [x, self.weight([h])], domain=domain, axis=-1, epsilon=1e-6,
                         stash_type=1)

    def split_heads(self, x, heads, dh):
        """transpose_for_scores: view(x.size()[:-1] + (heads, dh)) then permute(0, 2, 1, 3)."""
        return self.transpose(self.node("Reshape", [x, self.size_with(x, -1, [heads, dh])]), [0, 2, 1, 3])

    def merge_heads(self, x, h):
        """permute(0, 2, 1, 3), then view(size()[:-2] + (h,))."""
        x = self.transpose(x, [0, 2, 1, 3])
        return self.node("Reshape", [x, self.size_with(x, -2, [h])])

    def extended_mask(self, mask):
        """BERT/GPT-2's additive mask: (1 - mask[:, None, None, :].float()) * finfo.min."""
        m = self.node("Cast", [self.unsqueeze(mask, [1, 2])], to=F32)
        return self.node("Mul", [self.node("Sub", [self.fconst(1.0), m]), self.fconst(FLOAT_MIN)])

    def attention_4d(self, q, k, v, heads, dh, h, mask=None, past=None, causal=None):
        """Eager attention on [B, S, H] projections: split heads, (past concatenated), QK^T / sqrt(dh),
        (causal Where), (additive mask), softmax, AV, merge heads. Returns (context, qk node, av node, k, v)."""
        qh, kh, vh = (self.split_heads(t, heads, dh) for t in (q, k, v))
        if past is not None:
            kh = self.node("Concat", [past[0], kh], axis=2)
            vh = self.node("Concat", [past[1], vh], axis=2)
        scores = self.node("MatMul", [qh, self.transpose(kh, [0, 1, 3, 2])])
        qk = self.last
        scores = self.node("Div", [scores, self.fconst(math.sqrt(dh))])
        if causal is not None:
            scores = causal(scores, qh, kh)
        if mask is not None:
            scores = self.node("Add", [scores, mask])
        context = self.node("MatMul", [self.node("Softmax", [scores], axis=-1), vh])
        av = self.last
        return self.merge_heads(context, h), qk, av, kh, vh

    def self_attention(self, sources, parts, h, heads, mask=None, bias=True, each=None):
        """Q, K, V projections (projections() of `sources` under the scopes `parts`), then attention_4d.
        Returns (context, qk node, av node)."""
        q, k, v = self.projections(sources, parts, h, h, bias, each)
        context, qk, av, _, _ = self.attention_4d(q, k, v, heads, h // heads, h, mask=mask)
        return context, qk, av

    def bmm_attention(self, q, k, v, heads, dh, h, mask=None):
        """BART/Whisper's eager attention (transformers < 4.36): q scaled, heads folded into the batch
        (view(bsz * heads, -1, dh)), torch.bmm, the mask added through a view(bsz, heads, tgt, src).
        Returns (context [B, T, H], qk node, av node)."""
        bsz = self.dim(q, 0)
        tgt = self.dim(q, 1)
        bh = self.node("Mul", [bsz, self.const(heads)])

        def fold(t):
            t = self.transpose(self.reshape(t, [bsz, -1, heads, dh]), [0, 2, 1, 3])
            return self.reshape(t, [bh, -1, dh])

        qf, kf, vf = fold(q), fold(k), fold(v)
        src = self.dim(kf, 1)
        weights = self.node("MatMul", [qf, self.transpose(kf, [0, 2, 1])])
        qk = self.last
        if mask is not None:
            weights = self.node("Add", [self.reshape(weights, [bsz, heads, tgt, src]), mask])
            weights = self.reshape(weights, [bh, tgt, src])
        context = self.node("MatMul", [self.node("Softmax", [weights], axis=-1), vf])
        av = self.last
        context = self.transpose(self.reshape(context, [bsz, heads, tgt, dh]), [0, 2, 1, 3])
        return self.reshape(context, [bsz, tgt, h]), qk, av

    def causal_mask_runtime(self, seq, bsz):
        """transformers' _make_causal_mask, traced: ConstantOfShape((tgt, tgt), finfo.min), Range, a Less of
        the range against (range + 1).view(tgt, 1), Where(0), then [None, None] and expand(bsz, 1, tgt, tgt).
        No Trilu."""
        full = self.node("ConstantOfShape", [self.shape_vector([seq, seq])],
                         value=numpy_helper.from_array(np.array([FLOAT_MIN], dtype=np.float32)))
        cond = self.node("Range", [self.const(0), seq, self.const(1)])
        shifted = self.reshape(self.node("Add", [cond, self.const(1)]), [seq, 1])
        mask = self.node("Where", [self.node("Less", [cond, shifted]), self.fconst(0.0), full])
        mask = self.unsqueeze(mask, [0, 1])
        return self.expand_like_torch(mask, [bsz, 1, seq, seq])


# --- blocks shared by several models ------------------------------------------------------------------------

def vit_layer(g, y, dim, heads, ffn, act, eps=1e-5):
    """Hugging Face's pre-LN ViTLayer (and MobileViT's transformer layer) under the current scope:
    layernorm_before, attention/attention (query, key, value, eager attention), attention/output/dense,
    residual, layernorm_after, intermediate/dense and `act`, output/dense, residual.
    Returns (y, qk node, av node)."""
    with g.scope("layernorm_before"):
        z = g.layer_norm(y, dim, eps=eps)
    with g.scope("attention/attention"):
        context, qk, av = g.self_attention(z, ("query", "key", "value"), dim, heads)
    with g.scope("attention/output/dense"):
        z = g.linear(context, dim, dim)
    y = g.node("Add", [z, y])
    with g.scope("layernorm_after"):
        z = g.layer_norm(y, dim, eps=eps)
    with g.scope("intermediate/dense"):
        z = act(g.linear(z, dim, ffn))
    with g.scope("output/dense"):
        z = g.linear(z, ffn, dim)
    return g.node("Add", [z, y]), qk, av


def whisper_attention(g, x, block, hidden, heads, memory=None, mask=None):
    """One of Whisper's pre-LN attention blocks (eager WhisperAttention) under the current scope:
    `<block>_layer_norm`; in `block`, q_proj (scaled by dh^-0.5) of the normed input, k_proj (no bias) and
    v_proj of it (or of `memory`: cross-attention), bmm_attention (`mask` added) and out_proj; the residual
    Add. Returns (x, qk node, av node)."""
    dh = hidden // heads
    with g.scope(f"{block}_layer_norm"):
        y = g.layer_norm(x, hidden)
    with g.scope(block):
        with g.scope("q_proj"):
            q = g.node("Mul", [g.linear(y, hidden, hidden), g.fconst(dh ** -0.5)])
        src = y if memory is None else memory
        with g.scope("k_proj"):
            k = g.linear(src, hidden, hidden, bias=False)
        with g.scope("v_proj"):
            v = g.linear(src, hidden, hidden)
        context, qk, av = g.bmm_attention(q, k, v, heads, dh, hidden, mask=mask)
        with g.scope("out_proj"):
            y = g.linear(context, hidden, hidden)
    return g.node("Add", [x, y]), qk, av


def whisper_mlp(g, x, hidden, ffn):
    """Whisper's MLP block under the current scope: final_layer_norm, fc1 and GELU, fc2, the residual Add."""
    with g.scope("final_layer_norm"):
        y = g.layer_norm(x, hidden)
    with g.scope("fc1"):
        y = g.gelu_erf(g.linear(y, hidden, ffn))
    with g.scope("fc2"):
        y = g.linear(y, ffn, hidden)
    return g.node("Add", [x, y])


def detr_cross_attention(g, scope, query, key, value, hidden, heads):
    """DETR's encoder_attn under `scope`: q_proj, k_proj and v_proj of `query`, `key` and `value` (each a
    tensor, or a callable building it inside the projection's scope, as with_pos_embed's Add), eager
    attention, out_proj. Returns (output, qk node, av node)."""
    with g.scope(scope):
        context, qk, av = g.self_attention([query, key, value], ("q_proj", "k_proj", "v_proj"), hidden, heads)
        with g.scope("out_proj"):
            return g.linear(context, hidden, hidden), qk, av


def ort_dense_skip_norm(g, y, residual, k, h):
    """BERT's dense after onnxruntime's optimizer: MatMul [k, h], then SkipLayerNormalization with
    `residual` (the dense bias its 5th input)."""
    return g.skip_layer_norm(g.node("MatMul", [y, g.weight([k, h])]), residual, h, 1e-12)


def ort_bert_ffn(g, x, hidden, ffn, gelu="BiasGelu"):
    """BERT's feed-forward after onnxruntime's optimizer: intermediate MatMul and `gelu` (BiasGelu or
    FastGelu, with the bias), output MatMul and SkipLayerNormalization."""
    with g.scope("intermediate"):
        y = g.fused_gelu(x, hidden, ffn, gelu)
    with g.scope("output"):
        return ort_dense_skip_norm(g, y, x, ffn, hidden)


def gpt2_lm_head(g, x, hidden, vocab, outputs=1):
    """GPT-2's end: transformer/ln_f, then the lm_head MatMul [hidden, vocab] (`outputs` 1, or its name list)."""
    with g.scope("transformer/ln_f"):
        x = g.layer_norm(x, hidden)
    with g.scope("lm_head"):
        return g.node("MatMul", [x, g.weight([hidden, vocab])], outputs=outputs)


def llama_mlp(g, y, hidden, ffn):
    """LLaMA's SiLU-gated MLP (no biases) under mlp/: gate_proj and SiLU, up_proj, their product, down_proj."""
    with g.scope("mlp"):
        with g.scope("gate_proj"):
            gate = g.silu(g.linear(y, hidden, ffn, bias=False))
        with g.scope("up_proj"):
            up = g.linear(y, hidden, ffn, bias=False)
        with g.scope("down_proj"):
            return g.linear(g.node("Mul", [gate, up]), ffn, hidden, bias=False)


# --- models -----------------------------------------------------------------------------------------------

def bert(ln="decomposed", hidden=32, heads=4, ffn=128, vocab=100, max_positions=64, layers=1):
    """optimum's BERT export: input_ids, attention_mask, token_type_ids [batch_size, sequence_length];
    position ids sliced from the position_ids buffer by the sequence length; the additive mask; per layer
    Q/K/V (MatMul + Add), eager attention, output dense, residual, LayerNorm (decomposed below opset 17, fused
    at 17), intermediate dense, GELU (erf), output dense, residual, LayerNorm."""
    decomposed = ln == "decomposed"
    g = Graph(opset=14 if decomposed else 17)
    ids = g.input("input_ids", ["batch_size", "sequence_length"], I64)
    mask = g.input("attention_mask", ["batch_size", "sequence_length"], I64)
    token_types = g.input("token_type_ids", ["batch_size", "sequence_length"], I64)
    with g.scope("embeddings"):
        seq = g.dim(ids, 1)
        position_ids = g.init(np.arange(max_positions, dtype=np.int64)[None], "embeddings.position_ids")
        position_ids = g.slice(position_ids, [0], g.unsqueeze(seq, [0]), [1])
        with g.scope("word_embeddings"):
            x = g.node("Gather", [g.weight([vocab, hidden]), ids])
        with g.scope("token_type_embeddings"):
            x = g.node("Add", [x, g.node("Gather", [g.weight([2, hidden]), token_types])])
        with g.scope("position_embeddings"):
            x = g.node("Add", [x, g.node("Gather", [g.weight([max_positions, hidden]), position_ids])])
        with g.scope("LayerNorm"):
            x = g.layer_norm(x, hidden, decomposed, 1e-12)
    extended = g.extended_mask(mask)
    names = []
    for i in range(layers):
        with g.scope(f"encoder/layer.{i}"):
            with g.scope("attention/self"):
                context, qk, av = g.self_attention(x, ("query", "key", "value"), hidden, heads, mask=extended)
            with g.scope("attention/output"):
                with g.scope("dense"):
                    y = g.linear(context, hidden, hidden)
                with g.scope("LayerNorm"):
                    x = g.layer_norm(g.node("Add", [y, x]), hidden, decomposed, 1e-12)
            with g.scope("intermediate"):
                with g.scope("dense"):
                    y = g.linear(x, hidden, ffn)
                y = g.gelu_erf(y)
            with g.scope("output"):
                with g.scope("dense"):
                    y = g.linear(y, ffn, hidden)
                with g.scope("LayerNorm"):
                    x = g.layer_norm(g.node("Add", [y, x]), hidden, decomposed, 1e-12)
            names.append({"qk": qk, "av": av})
    g.output(x)
    g.attention_nodes = names
    return g


def gpt2_body(g, ids, mask, past=None, hidden=32, heads=4, vocab=100, n_positions=1024):
    """GPT-2 (transformers' eager GPT2Attention) with one block, into `g`: positions by Range from the past
    length, Conv1D as Gemm between views, Split of c_attn, the causal mask sliced from the bool `bias` table
    [1, 1, n_positions, n_positions] by key_length - query_length .. key_length and applied by Where, the
    additive attention mask, NewGELU, ln_f and the tied lm_head. Returns (logits, present key, present value)."""
    dh = hidden // heads
    with g.scope("transformer"):
        seq = g.dim(ids, 1)
        start = g.dim(past[0], 2) if past is not None else g.const(0)
        positions = g.unsqueeze(g.node("Range", [start, g.node("Add", [seq, start]), g.const(1)]), [0])
        with g.scope("wte"):
            x = g.node("Gather", [g.weight([vocab, hidden]), ids])
        with g.scope("wpe"):
            x = g.node("Add", [x, g.node("Gather", [g.weight([n_positions, hidden]), positions])])
        bsz = g.dim(ids, 0)
        extended = g.extended_mask(g.reshape(mask, [bsz, -1]))
        with g.scope("h.0"):
            with g.scope("ln_1"):
                y = g.layer_norm(x, hidden)
            with g.scope("attn"):
                with g.scope("c_attn"):
                    qkv = g.conv1d_hf(y, hidden, 3 * hidden)
                q, k, v = g.node("Split", [qkv, g.const([hidden] * 3)], outputs=3, axis=2)
                table = g.init(np.tril(np.ones((n_positions, n_positions), dtype=bool))[None, None],
                               "transformer.h.0.attn.bias")

                def causal(scores, qh, kh):
                    query_length, key_length = g.dim(qh, 2), g.dim(kh, 2)
                    m = g.slice(table, g.unsqueeze(g.node("Sub", [key_length, query_length]), [0]),
                                g.unsqueeze(key_length, [0]), [2])
                    m = g.slice(m, [0], g.unsqueeze(key_length, [0]), [3])
                    return g.node("Where", [m, scores, g.fconst(FLOAT_MIN)])

                context, qk, av, present_k, present_v = g.attention_4d(q, k, v, heads, dh, hidden, mask=extended,
                                                                      past=past, causal=causal)
                with g.scope("c_proj"):
                    y = g.conv1d_hf(context, hidden, hidden)
            x = g.node("Add", [y, x])
            with g.scope("ln_2"):
                y = g.layer_norm(x, hidden)
            with g.scope("mlp"):
                with g.scope("c_fc"):
                    y = g.conv1d_hf(y, hidden, 4 * hidden)
                y = g.gelu_tanh(y)
                with g.scope("c_proj"):
                    y = g.conv1d_hf(y, 4 * hidden, hidden)
            x = g.node("Add", [x, y])
    logits = gpt2_lm_head(g, x, hidden, vocab)
    g.attention_nodes = [{"qk": qk, "av": av}]
    return logits, present_k, present_v


def gpt2(past=False, hidden=32, heads=4, vocab=100, n_positions=1024):
    """optimum's decoder_model.onnx (past=False) or decoder_with_past_model.onnx (past=True)."""
    g = Graph(opset=14)
    ids = g.input("input_ids", ["batch_size", "sequence_length"], I64)
    kv = None
    if past:
        g.input("attention_mask", ["batch_size", "past_sequence_length + sequence_length"], I64)
        kv = [g.input(f"past_key_values.0.{t}", ["batch_size", heads, "past_sequence_length", hidden // heads])
              for t in ("key", "value")]
    else:
        g.input("attention_mask", ["batch_size", "sequence_length"], I64)
    logits, key, value = gpt2_body(g, ids, "attention_mask", kv, hidden, heads, vocab, n_positions)
    g.output(logits)
    g.output(key)
    g.output(value)
    return g


def gpt2_merged(hidden=32, heads=4, vocab=100, n_positions=1024):
    """optimum's decoder_model_merged.onnx: one If on the `use_cache_branch` input whose then_branch is the
    decoder with past (key/value caches concatenated) and whose else_branch the decoder without; both read
    the outer graph's inputs and initializers."""
    g = Graph(opset=14)
    ids = g.input("input_ids", ["batch_size", "sequence_length"], I64)
    mask = g.input("attention_mask", ["batch_size", "attention_mask_sequence_length"], I64)
    kv = [g.input(f"past_key_values.0.{t}", ["batch_size", heads, "past_sequence_length", hidden // heads])
          for t in ("key", "value")]
    use_cache = g.input("use_cache_branch", [1], BOOL)
    branches = {}
    for branch, past in (("then_branch", kv), ("else_branch", None)):
        body = g.child()
        outs = gpt2_body(body, ids, mask, past, hidden, heads, vocab, n_positions)
        branches[branch] = body.body(f"optimum::{'with' if past else 'no'}_past", [(o, F32) for o in outs])
    outs = ["logits", "present.0.key", "present.0.value"]
    g.node("If", [use_cache], outputs=outs, name="optimum::if", **branches)
    for o in outs:
        g.output(o)
    return g


def whisper_encoder(mels=16, frames=32, hidden=32, heads=4, ffn=128):
    """Whisper's encoder (optimum): input_features [batch_size, feature_size, encoder_sequence_length]; conv1
    (k3, pad 1) and GELU, conv2 (k3, stride 2, pad 1) and GELU, permute, + embed_positions, one pre-LN layer
    (q scaled, k without bias, bmm attention), final LayerNorm."""
    g = Graph(opset=14)
    x = g.input("input_features", ["batch_size", "feature_size", "encoder_sequence_length"])
    with g.scope("conv1"):
        x = g.gelu_erf(g.conv(x, mels, hidden, 3, rank=1))
    with g.scope("conv2"):
        x = g.gelu_erf(g.conv(x, hidden, hidden, 3, stride=2, rank=1))
    x = g.transpose(x, [0, 2, 1])
    with g.scope("embed_positions"):
        x = g.node("Add", [x, g.weight([frames // 2, hidden])])
    with g.scope("layers.0"):
        x, qk, av = whisper_attention(g, x, "self_attn", hidden, heads)
        x = whisper_mlp(g, x, hidden, ffn)
    with g.scope("layer_norm"):
        x = g.layer_norm(x, hidden)
    g.output(x)
    g.attention_nodes = [{"qk": qk, "av": av}]
    return g


def whisper_decoder(hidden=32, heads=4, ffn=128, vocab=64, max_target_positions=64):
    """Whisper's decoder without past (optimum): input_ids [batch_size, decoder_sequence_length] and
    encoder_hidden_states [batch_size, encoder_sequence_length / 2, H]; token embedding, positions sliced from
    the table by the length, the run-time causal mask (_make_causal_mask), one layer of masked self-attention,
    cross-attention over the encoder states, the MLP, the final LayerNorm and proj_out (tied embedding)."""
    g = Graph(opset=14)
    ids = g.input("input_ids", ["batch_size", "decoder_sequence_length"], I64)
    memory = g.input("encoder_hidden_states", ["batch_size", "encoder_sequence_length / 2", hidden])
    bsz, seq = g.dim(ids, 0), g.dim(ids, 1)
    with g.scope("embed_tokens"):
        x = g.node("Gather", [g.weight([vocab, hidden]), ids])
    with g.scope("embed_positions"):
        positions = g.slice(g.weight([max_target_positions, hidden]), [0], g.unsqueeze(seq, [0]), [0])
        x = g.node("Add", [x, positions])
    causal = g.causal_mask_runtime(seq, bsz)
    nodes = {}
    with g.scope("layers.0"):
        for block, kv_source, mask in (("self_attn", None, causal), ("encoder_attn", memory, None)):
            x, qk, av = whisper_attention(g, x, block, hidden, heads, memory=kv_source, mask=mask)
            nodes[block] = {"qk": qk, "av": av}
        x = whisper_mlp(g, x, hidden, ffn)
    with g.scope("layer_norm"):
        x = g.layer_norm(x, hidden)
    with g.scope("proj_out"):
        logits = g.node("MatMul", [x, g.weight([hidden, vocab])])
    g.output(logits)
    g.attention_nodes = nodes
    return g


def mobilenet_v3_block(size=32):
    """torchvision's MobileNetV3 (BatchNorm folded into the convolutions by the export): stem 3x3 stride 2
    with HardSwish, then one inverted residual: expand 1x1 16->64 + HardSwish, depthwise 3x3 + HardSwish,
    squeeze-excite (GlobalAveragePool, 1x1 64->16, Relu, 1x1 16->64, HardSigmoid, Mul), project 1x1 64->16,
    residual Add."""
    g = Graph(opset=14)
    x = g.input("input", ["batch_size", 3, size, size])
    with g.scope("features/features.0/features.0.0"):
        x = g.node("HardSwish", [g.conv(x, 3, 16, 3, stride=2)])
    with g.scope("features/features.1/block"):
        with g.scope("block.0/block.0.0"):
            y = g.node("HardSwish", [g.conv(x, 16, 64, 1)])
        with g.scope("block.1/block.1.0"):
            y = g.node("HardSwish", [g.conv(y, 64, 64, 3, group=64)])
        with g.scope("block.2"):
            pooled = g.node("GlobalAveragePool", [y])
            with g.scope("fc1"):
                s = g.node("Relu", [g.conv(pooled, 64, 16, 1)])
            with g.scope("fc2"):
                s = g.conv(s, 16, 64, 1)
            s = g.node("HardSigmoid", [s], alpha=1.0 / 6, beta=0.5)
            y = g.node("Mul", [s, y])
        with g.scope("block.3/block.3.0"):
            y = g.conv(y, 64, 16, 1)
    x = g.node("Add", [y, x])
    g.output(x)
    return g


def mobilevit_block(channels=16, dim=32, size=8, heads=4, ffn=64):
    """Hugging Face's MobileViTLayer: conv 3x3 + SiLU, conv 1x1 to `dim`; unfolding into 2x2 patches
    (reshape to [B*C*nh, ph, nw, pw], transpose, reshape [B, C, N, P], transpose, reshape [B*P, N, C]); one
    pre-LN transformer layer over the N patches of each of the P positions; folding back; conv 1x1 + SiLU;
    concatenation with the input and the fusion conv 3x3 + SiLU."""
    g = Graph(opset=14)
    ph = pw = 2
    nh, nw = size // ph, size // pw
    patches, area = nh * nw, ph * pw
    x = g.input("pixel_values", ["batch_size", channels, size, size])
    with g.scope("conv_kxk"):
        y = g.silu(g.conv(x, channels, channels, 3))
    with g.scope("conv_1x1"):
        y = g.conv(y, channels, dim, 1, bias=False)
    bsz = g.dim(y, 0)
    # unfolding
    y = g.reshape(y, [g.node("Mul", [bsz, g.const(dim * nh)]), ph, nw, pw])
    y = g.transpose(y, [0, 2, 1, 3])
    y = g.reshape(y, [bsz, dim, patches, area])
    y = g.transpose(y, [0, 3, 2, 1])
    y = g.reshape(y, [g.node("Mul", [bsz, g.const(area)]), patches, dim])
    with g.scope("transformer/layer.0"):
        y, qk, av = vit_layer(g, y, dim, heads, ffn, g.silu)
    with g.scope("layernorm"):
        y = g.layer_norm(y, dim)
    # folding
    y = g.reshape(y, [bsz, area, patches, -1])
    y = g.transpose(y, [0, 3, 2, 1])
    y = g.reshape(y, [g.node("Mul", [bsz, g.const(dim * nh)]), nw, ph, pw])
    y = g.transpose(y, [0, 2, 1, 3])
    y = g.reshape(y, [bsz, dim, nh * ph, nw * pw])
    with g.scope("conv_projection"):
        y = g.silu(g.conv(y, dim, channels, 1))
    with g.scope("fusion"):
        y = g.silu(g.conv(g.node("Concat", [x, y], axis=1), 2 * channels, channels, 3))
    g.output(y)
    g.attention_nodes = [{"qk": qk, "av": av}]
    return g


def qdq_conv(size=16):
    """onnxruntime's quantize_static in QDQ format: every activation goes through QuantizeLinear then
    DequantizeLinear (uint8), the weights are int8 initializers dequantised per channel (axis 0), the bias
    int32 dequantised with scale = input scale x weight scale; two convolutions (3->8 3x3, 8->16 3x3 stride
    2), a Relu between."""
    g = Graph(opset=13, producer=("onnx.quantize", "0.1.0"))
    x = g.input("input", ["batch_size", 3, size, size])

    def qdq(t, tag):
        scale = g.init(np.array(0.05, np.float32), f"{tag}_scale")
        zero = g.init(np.array(128, np.uint8), f"{tag}_zero_point")
        q = g.node("QuantizeLinear", [t, scale, zero], name=f"{tag}_QuantizeLinear")
        return g.node("DequantizeLinear", [q, scale, zero], name=f"{tag}_DequantizeLinear")

    def qconv(t, cin, cout, stride, tag):
        w = g.init(g.rng.integers(-127, 127, size=(cout, cin, 3, 3), dtype=np.int8), f"{tag}.weight_quantized")
        ws = g.init(np.full(cout, 0.01, np.float32), f"{tag}.weight_scale")
        wz = g.init(np.zeros(cout, np.int8), f"{tag}.weight_zero_point")
        b = g.init(g.rng.integers(-1000, 1000, size=cout, dtype=np.int32), f"{tag}.bias_quantized")
        bs = g.init(np.full(cout, 0.0005, np.float32), f"{tag}.bias_scale")
        bz = g.init(np.zeros(cout, np.int32), f"{tag}.bias_zero_point")
        wq = g.node("DequantizeLinear", [w, ws, wz], name=f"{tag}.weight_DequantizeLinear", axis=0)
        bq = g.node("DequantizeLinear", [b, bs, bz], name=f"{tag}.bias_DequantizeLinear", axis=0)
        return g.node("Conv", [t, wq, bq], name=f"/{tag}/Conv", kernel_shape=[3, 3], strides=[stride, stride],
                      pads=[1, 1, 1, 1])

    y = qconv(qdq(x, "input"), 3, 8, 1, "conv1")
    y = g.node("Relu", [qdq(y, "conv1_out")], name="/relu/Relu")
    y = qconv(qdq(y, "relu_out"), 8, 16, 2, "conv2")
    y = qdq(y, "output")
    g.output(y)
    return g


def vit(size=32, patch=8, hidden=32, heads=4, ffn=128, classes=10, layers=1):
    """Hugging Face's ViT: patch Conv (stride = kernel = patch), flatten(2).transpose(1, 2), the CLS token
    expanded to the batch (expand(batch_size, -1, -1), whose -1s torch replaces at run time), concatenated
    in front, + position embeddings, `layers` pre-LN layers, final LayerNorm, the CLS row gathered,
    classifier."""
    g = Graph(opset=14)
    tokens = (size // patch) ** 2 + 1
    x = g.input("pixel_values", ["batch_size", "num_channels", "height", "width"])
    with g.scope("vit/embeddings"):
        with g.scope("patch_embeddings/projection"):
            y = g.conv(x, 3, hidden, patch, stride=patch, pad=0)
        y = g.transpose(g.node("Reshape", [y, g.size_with(y, 2, [-1])]), [0, 2, 1])
        bsz = g.dim(y, 0)
        cls = g.expand_like_torch(g.weight([1, 1, hidden], "cls_token"), [bsz, -1, -1])
        y = g.node("Concat", [cls, y], axis=1)
        y = g.node("Add", [y, g.weight([1, tokens, hidden], "position_embeddings")])
    for layer in range(layers):
        with g.scope(f"vit/encoder/layer.{layer}"):
            y, qk, av = vit_layer(g, y, hidden, heads, ffn, g.gelu_erf, eps=1e-12)
    with g.scope("vit/layernorm"):
        y = g.layer_norm(y, hidden, eps=1e-12)
    cls_row = g.node("Gather", [y, g.const(0)], axis=1)
    with g.scope("classifier"):
        logits = g.node("Gemm", [cls_row, g.weight([classes, hidden]), g.weight([classes], "bias")], transB=1)
    g.output(logits)
    g.attention_nodes = [{"qk": qk, "av": av}]
    return g


def deformable_detr_queries(queries=8, memory=16, hidden=32, heads=4):
    """A DETR-family decoder layer past the first (its hidden states an activation): the learned query
    position embeddings unsqueeze(0).expand(batch_size, -1, -1) to the batch taken from the encoder memory's
    Shape, added to the hidden states for the query; cross-attention over the memory; output projection."""
    g = Graph(opset=14)
    memory_in = g.input("encoder_hidden_states", ["batch_size", memory, hidden])
    hidden_in = g.input("decoder_hidden_states", ["batch_size", queries, hidden])
    bsz = g.dim(memory_in, 0)
    with g.scope("query_position_embeddings"):
        pos = g.expand_like_torch(g.unsqueeze(g.weight([queries, hidden]), [0]), [bsz, -1, -1])
    y, qk, av = detr_cross_attention(g, "decoder/layers.1/encoder_attn", lambda: g.node("Add", [hidden_in, pos]),
                                     memory_in, memory_in, hidden, heads)
    g.output(g.node("Add", [y, hidden_in]))
    g.attention_nodes = [{"qk": qk, "av": av}]
    return g


def detr_first_decoder_layer(queries=8, memory=16, hidden=32, heads=4):
    """DETR's first decoder layer as Hugging Face exports it, cross-attention part: the query position
    embeddings unsqueeze(0).repeat(batch_size, 1, 1) (a Tile), the hidden states zeros_like them
    (ConstantOfShape), so the query (hidden + query_pos) and its projection q_proj are constant x constant;
    keys from memory + the spatial position embedding, values from the memory (activations)."""
    g = Graph(opset=14)
    memory_in = g.input("encoder_hidden_states", ["batch_size", memory, hidden])
    bsz = g.dim(memory_in, 0)
    with g.scope("query_position_embeddings"):
        pos = g.node("Tile", [g.unsqueeze(g.weight([queries, hidden]), [0]), g.shape_vector([bsz, 1, 1])])
    zeros = g.node("ConstantOfShape", [g.node("Shape", [pos])],
                   value=numpy_helper.from_array(np.array([0], np.float32)))
    y, _, _ = detr_cross_attention(
        g, "decoder/layers.0/encoder_attn", lambda: g.node("Add", [zeros, pos]),
        lambda: g.node("Add", [memory_in, g.weight([1, memory, hidden], "spatial_position")]), memory_in, hidden, heads)
    g.output(y)
    g.q_proj = "/decoder/layers.0/encoder_attn/q_proj/MatMul"  # constant x constant (its bias Add follows)
    return g


def opt_decoder_runtime_mask(hidden=32, heads=4, vocab=100):
    """An OPT/BART-style decoder self-attention whose causal mask is built at run time from the sequence
    length (_make_causal_mask: ConstantOfShape, Range, Less, Where, Expand; no Trilu) and added to the
    scores; projections, eager attention, out_proj."""
    g = Graph(opset=14)
    ids = g.input("input_ids", ["batch_size", "sequence_length"], I64)
    bsz, seq = g.dim(ids, 0), g.dim(ids, 1)
    with g.scope("decoder/embed_tokens"):
        x = g.node("Gather", [g.weight([vocab, hidden]), ids])
    mask = g.causal_mask_runtime(seq, bsz)
    with g.scope("decoder/layers.0/self_attn"):
        context, qk, av = g.self_attention(x, ("q_proj", "k_proj", "v_proj"), hidden, heads, mask=mask)
        with g.scope("out_proj"):
            y = g.linear(context, hidden, hidden)
    g.output(y)
    g.attention_nodes = [{"qk": qk, "av": av}]
    return g


def position_table_slice(rows=512, width=128, out=64):
    """inputs_embeds [batch_size, sequence_length, 128] + a 512 x 128 learned position table sliced to the
    sequence length (weight[:seq]), LayerNorm, a projection to 64."""
    g = Graph(opset=17)
    x = g.input("inputs_embeds", ["batch_size", "sequence_length", width])
    seq = g.dim(x, 1)
    with g.scope("embed_positions"):
        table = g.slice(g.weight([rows, width]), [0], g.unsqueeze(seq, [0]), [0])
    x = g.node("Add", [x, table])
    with g.scope("layernorm_embedding"):
        x = g.layer_norm(x, width)
    with g.scope("proj"):
        x = g.linear(x, width, out)
    g.output(x)
    return g


def gelu_opset20(seq=8, hidden=32, ffn=128):
    """A feed-forward block exported at opset 20, where torch writes GELU as the Gelu operator (exact, then
    the tanh approximation)."""
    g = Graph(opset=20)
    x = g.input("hidden_states", [1, seq, hidden])
    with g.scope("fc1"):
        y = g.node("Gelu", [g.linear(x, hidden, ffn)], approximate="none")
    with g.scope("fc2"):
        y = g.node("Gelu", [g.linear(y, ffn, hidden)], approximate="tanh")
    g.output(y)
    return g


def dynamic_quantized(size=16):
    """onnxruntime's quantize_dynamic (QOperator): each Conv and MatMul reads its input through
    DynamicQuantizeLinear; ConvInteger / MatMulInteger with uint8 weights and their zero points, Cast to
    float, Mul by (input scale x weight scale), Add of the float bias."""
    g = Graph(opset=13, producer=("onnx.quantize", "0.1.0"))
    x = g.input("input", [1, 3, size, size])

    def dequantise(t, x_scale, tag, cout, bias_shape):
        scale = g.node("Mul", [x_scale, g.init(np.array(0.01, np.float32), f"{tag}_scale")], name=f"{tag}_scales_mul")
        t = g.node("Cast", [t], name=f"{tag}_output_quantized_cast", to=F32)
        t = g.node("Mul", [t, scale], name=f"{tag}_output_quantized_mul")
        return g.node("Add", [t, g.init(np.zeros(bias_shape, np.float32), f"{tag}.bias")], name=f"{tag}_bias_add")

    xq, xs, xz = g.node("DynamicQuantizeLinear", [x], outputs=3, name="input_QuantizeLinear")
    w = g.init(g.rng.integers(0, 255, size=(8, 3, 3, 3), dtype=np.uint8), "conv.weight_quantized")
    y = g.node("ConvInteger", [xq, w, xz, g.init(np.array(128, np.uint8), "conv.weight_zero_point")],
               name="/conv/Conv_quant", pads=[1, 1, 1, 1], kernel_shape=[3, 3])
    y = g.node("Relu", [dequantise(y, xs, "conv", 8, [1, 8, 1, 1])], name="/relu/Relu")
    y = g.transpose(g.reshape_const(y, [1, 8, size * size]), [0, 2, 1])
    yq, ys, yz = g.node("DynamicQuantizeLinear", [y], outputs=3, name="fc_input_QuantizeLinear")
    w = g.init(g.rng.integers(0, 255, size=(8, 16), dtype=np.uint8), "fc.weight_quantized")
    y = g.node("MatMulInteger", [yq, w, yz, g.init(np.array(128, np.uint8), "fc.weight_zero_point")],
               name="/fc/MatMul_quant")
    y = dequantise(y, ys, "fc", 16, [16])
    g.output(y)
    return g


def qoperator_static(size=16, classes=10):
    """onnxruntime's quantize_static in QOperator format: QuantizeLinear of the input, QLinearConv 3->8 (3x3,
    pad 1), QLinearConv 8->16 (3x3, stride 2), DequantizeLinear, Flatten, QuantizeLinear, QLinearMatMul to the
    classes, DequantizeLinear."""
    g = Graph(opset=13, producer=("onnx.quantize", "0.1.0"))
    x = g.input("input", [1, 3, size, size])
    s = g.init(np.array(0.05, np.float32), "act_scale")
    z = g.init(np.array(128, np.uint8), "act_zero_point")
    ws = g.init(np.array(0.01, np.float32), "weight_scale")
    wz = g.init(np.array(0, np.int8), "weight_zero_point")
    y = g.node("QuantizeLinear", [x, s, z], name="input_QuantizeLinear")
    for tag, cin, cout, stride in (("conv1", 3, 8, 1), ("conv2", 8, 16, 2)):
        w = g.init(g.rng.integers(-127, 127, size=(cout, cin, 3, 3), dtype=np.int8), f"{tag}.weight_quantized")
        b = g.init(np.zeros(cout, np.int32), f"{tag}.bias_quantized")
        y = g.node("QLinearConv", [y, s, z, w, ws, wz, s, z, b], name=f"/{tag}/Conv_quant", kernel_shape=[3, 3],
                   strides=[stride, stride], pads=[1, 1, 1, 1])
    y = g.node("DequantizeLinear", [y, s, z], name="conv2_DequantizeLinear")
    y = g.node("Flatten", [y], axis=1)
    y = g.node("QuantizeLinear", [y, s, z], name="flat_QuantizeLinear")
    w = g.init(g.rng.integers(-127, 127, size=(16 * (size // 2) ** 2, classes), dtype=np.int8), "fc.weight_quantized")
    y = g.node("QLinearMatMul", [y, s, z, w, ws, wz, s, z], name="/fc/MatMul_quant")
    g.output(g.node("DequantizeLinear", [y, s, z], name="output_DequantizeLinear"))
    return g


def ort_bert_fused(hidden=32, heads=4, ffn=128, gelu="BiasGelu"):
    """A BERT layer after onnxruntime's transformer optimizer with attention fusion off: Q/K/V MatMul + Add,
    eager attention, output MatMul, SkipLayerNormalization (the output projection's bias as its 5th input),
    intermediate MatMul, BiasGelu (or FastGelu with the bias, as for GPT-2), output MatMul,
    SkipLayerNormalization."""
    g = Graph(opset=14, domains={MS: 1}, producer=("onnxruntime.transformers", "1.17.0"))
    x = g.input("hidden_states", ["batch_size", "sequence_length", hidden])
    with g.scope("encoder/layer.0"):
        with g.scope("attention/self"):
            context, qk, av = g.self_attention(x, ("query", "key", "value"), hidden, heads)
        with g.scope("attention/output"):
            x = ort_dense_skip_norm(g, context, x, hidden, hidden)
        x = ort_bert_ffn(g, x, hidden, ffn, gelu)
    g.output(x)
    g.attention_nodes = [{"qk": qk, "av": av}]
    return g


def ort_llama_fused(hidden=32, heads=4, ffn=64, vocab=100, max_positions=64, rms_domain=""):
    """A LLaMA layer after onnxruntime's optimizer (attention left unfused): SimplifiedLayerNormalization
    (RMSNorm), q/k/v MatMuls without bias, com.microsoft RotaryEmbedding on q and k (position_ids input,
    cos/sin caches), eager attention with the additive mask, o_proj, SkipSimplifiedLayerNormalization whose
    4th output (input + skip) is the next residual, SiLU-gated MLP, SimplifiedLayerNormalization, lm_head.
    onnxruntime registers SimplifiedLayerNormalization in the ONNX domain (as LayerNormalization was before
    opset 17), and its optimizer and onnxruntime-genai's builder write it there: `rms_domain` "" (the
    default) or "com.microsoft"."""
    g = Graph(opset=14, domains={MS: 1}, producer=("onnxruntime.transformers", "1.17.0"))
    dh = hidden // heads
    ids = g.input("input_ids", ["batch_size", "sequence_length"], I64)
    mask = g.input("attention_mask", ["batch_size", "sequence_length"], I64)
    positions = g.input("position_ids", ["batch_size", "sequence_length"], I64)
    with g.scope("model/embed_tokens"):
        x = g.node("Gather", [g.weight([vocab, hidden]), ids])
    extended = g.extended_mask(mask)
    cos, sin = g.weight([max_positions, dh // 2], "cos_cache"), g.weight([max_positions, dh // 2], "sin_cache")
    with g.scope("model/layers.0"):
        with g.scope("input_layernorm"):
            y = g.rms_norm(x, hidden, rms_domain or None)

        def rotary(part, p):
            if part == "v_proj":
                return p
            return g.node("RotaryEmbedding", [p, positions, cos, sin], domain=MS, num_heads=heads, interleaved=0)

        with g.scope("self_attn"):
            context, qk, av = g.self_attention(y, ("q_proj", "k_proj", "v_proj"), hidden, heads, mask=extended,
                                               bias=False, each=rotary)
            with g.scope("o_proj"):
                y = g.linear(context, hidden, hidden, bias=False)
        with g.scope("post_attention_layernorm"):
            y, _, _, x = g.node("SkipSimplifiedLayerNormalization", [y, x, g.weight([hidden])], domain=MS,
                                outputs=4, epsilon=1e-6)
        x = g.node("Add", [x, llama_mlp(g, y, hidden, ffn)])
    with g.scope("model/norm"):
        x = g.rms_norm(x, hidden, rms_domain or None)
    with g.scope("lm_head"):
        logits = g.linear(x, hidden, vocab, bias=False)
    g.output(logits)
    g.attention_nodes = [{"qk": qk, "av": av}]
    return g


def ort_gpt2_mlp(opset=14, hidden=32):
    """A GPT-2 MLP after onnxruntime's optimizer on a model exported at opset 14: the optimizer fuses ln_2
    into LayerNormalization in the ONNX domain whatever the model's opset (onnxruntime registers it there
    since version 1), then c_fc MatMul, FastGelu with the bias, c_proj MatMul, SkipLayerNormalization."""
    g = Graph(opset=opset, domains={MS: 1}, producer=("onnxruntime.transformers", "1.17.0"))
    x = g.input("hidden_states", ["batch_size", "sequence_length", hidden])
    with g.scope("transformer/h.0"):
        with g.scope("ln_2"):
            y = g.layer_norm(x, hidden, decomposed=False)
        with g.scope("mlp/c_fc"):
            y = g.fused_gelu(y, hidden, 4 * hidden, "FastGelu")
        with g.scope("mlp/c_proj"):
            y = g.node("MatMul", [y, g.weight([4 * hidden, hidden])])
        with g.scope("ln_1"):
            y = g.skip_layer_norm(y, x, hidden, 1e-5)
    g.output(y)
    return g


def seq_first_encoder_layer(seq="sequence", hidden=32, heads=4, ffn=64):
    """torch.nn.TransformerEncoderLayer (batch_first=False) exported: src [sequence, batch, E]; in_proj
    (MatMul + Add) and Split; heads folded into the batch (view(S, B*heads, dh), transpose(0, 1)); bmm of q
    scaled; softmax; bmm; transpose back and view(S*B, E); out_proj as Gemm; view(S, B, E); residual,
    LayerNorm, linear1, Relu, linear2, residual, LayerNorm."""
    g = Graph(opset=17)
    dh = hidden // heads
    src = g.input("src", [seq, "batch", hidden])
    s_len, bsz = g.dim(src, 0), g.dim(src, 1)
    bh = g.node("Mul", [bsz, g.const(heads)])
    with g.scope("self_attn"):
        with g.scope("in_proj"):
            qkv = g.linear(src, hidden, 3 * hidden)
        q, k, v = g.node("Split", [qkv, g.const([hidden] * 3)], outputs=3, axis=-1)
        q = g.node("Mul", [q, g.fconst(dh ** -0.5)])
        q, k, v = (g.transpose(g.reshape(t, [s_len, bh, dh]), [1, 0, 2]) for t in (q, k, v))
        scores = g.node("MatMul", [q, g.transpose(k, [0, 2, 1])])
        qk = g.last
        context = g.node("MatMul", [g.node("Softmax", [scores], axis=-1), v])
        av = g.last
        context = g.reshape(g.transpose(context, [1, 0, 2]), [g.node("Mul", [s_len, bsz]), hidden])
        with g.scope("out_proj"):
            y = g.node("Gemm", [context, g.weight([hidden, hidden]), g.weight([hidden], "bias")], transB=1)
        y = g.reshape(y, [s_len, bsz, hidden])
    with g.scope("norm1"):
        x = g.layer_norm(g.node("Add", [src, y]), hidden)
    with g.scope("linear1"):
        y = g.node("Relu", [g.linear(x, hidden, ffn)])
    with g.scope("linear2"):
        y = g.linear(y, ffn, hidden)
    with g.scope("norm2"):
        x = g.layer_norm(g.node("Add", [x, y]), hidden)
    g.output(x)
    g.attention_nodes = [{"qk": qk, "av": av}]
    return g


def ngram_blocked_head(hidden=32, vocab=64):
    """A generation step's head as onnxruntime's convert_generation writes it for BART: lm_head (Gemm) on
    the last hidden state, then com.microsoft NGramRepeatBlock on the scores, then Softmax."""
    g = Graph(opset=14, domains={MS: 1})
    x = g.input("last_hidden_state", ["batch_size", hidden])
    ids = g.input("input_ids", ["batch_size", "sequence_length"], I64)
    with g.scope("lm_head"):
        scores = g.node("Gemm", [x, g.weight([vocab, hidden]), g.weight([vocab], "bias")], transB=1)
    blocked = g.node("NGramRepeatBlock", [ids, scores], name="ngram_repeat_block", domain=MS, ngram_size=3)
    g.output(g.node("Softmax", [blocked], name="/Softmax", axis=-1))
    return g


def custom_decoder_head(size=16):
    """A detector whose box decoding is a custom-domain operator at the end (as exported with a
    torch.onnx custom symbolic): Conv 3x3 stride 2, Relu, Conv 1x1 to 4 box coordinates, then
    com.example.vision::DecodeBoxes."""
    g = Graph(opset=14, domains={"com.example.vision": 1})
    x = g.input("images", ["batch_size", 3, size, size])
    with g.scope("backbone"):
        y = g.node("Relu", [g.conv(x, 3, 8, 3, stride=2)])
    with g.scope("box_head"):
        y = g.conv(y, 8, 4, 1)
    g.output(g.node("DecodeBoxes", [y], name="decode_boxes", domain="com.example.vision", stride=2))
    return g


# --- operators being implemented (issue 38, group B) ---------------------------------------------------

def ort_bert_attention(hidden=32, heads=4, ffn=128, vocab=100, max_positions=64):
    """A BERT layer fully fused by onnxruntime's optimizer: int32 inputs, EmbedLayerNormalization (its
    mask_index output), com.microsoft Attention (packed QKV weights [H, 3H], bias [3H], num_heads), output
    MatMul, SkipLayerNormalization, MatMul, BiasGelu, MatMul, SkipLayerNormalization."""
    g = Graph(opset=14, domains={MS: 1}, producer=("onnxruntime.transformers", "1.17.0"))
    ids = g.input("input_ids", ["batch_size", "sequence_length"], I32)
    segments = g.input("token_type_ids", ["batch_size", "sequence_length"], I32)
    mask = g.input("attention_mask", ["batch_size", "sequence_length"], I32)
    with g.scope("embeddings"):
        x, mask_index = g.embed_layer_norm(ids, segments, vocab, max_positions, hidden, "token_type_embeddings", mask)
    with g.scope("encoder/layer.0"):
        with g.scope("attention"):
            a = g.node("Attention", [x, g.weight([hidden, 3 * hidden], "qkv_weight"),
                                     g.weight([3 * hidden], "qkv_bias"), mask_index], domain=MS, num_heads=heads)
            attention = g.last
        with g.scope("attention/output"):
            x = ort_dense_skip_norm(g, a, x, hidden, hidden)
        x = ort_bert_ffn(g, x, hidden, ffn)
    g.output(x)
    g.attention = attention
    return g


def ort_gpt2_attention_past(hidden=32, heads=4, vocab=100, n_positions=64):
    """onnxruntime's GPT-2 with past (convert_to_onnx, then optimizer): input_ids, position_ids,
    attention_mask [batch_size, total_sequence_length] and past_0 [2, batch_size, heads,
    past_sequence_length, head_size]; embeddings, LayerNormalization, com.microsoft Attention
    (unidirectional, past in, present out), c_proj MatMul, SkipLayerNormalization, c_fc MatMul, FastGelu,
    MatMul, Add, LayerNormalization, lm_head."""
    g = Graph(opset=17, domains={MS: 1}, producer=("onnxruntime.transformers", "1.17.0"))
    dh = hidden // heads
    ids = g.input("input_ids", ["batch_size", "sequence_length"], I32)
    positions = g.input("position_ids", ["batch_size", "sequence_length"], I32)
    mask = g.input("attention_mask", ["batch_size", "total_sequence_length"], I32)
    past = g.input("past_0", [2, "batch_size", heads, "past_sequence_length", dh])
    with g.scope("transformer"):
        x = g.node("Add", [g.node("Gather", [g.weight([vocab, hidden], "wte"), ids]),
                           g.node("Gather", [g.weight([n_positions, hidden], "wpe"), positions])])
        with g.scope("h.0"):
            with g.scope("ln_1"):
                y = g.layer_norm(x, hidden)
            with g.scope("attn"):
                a, present = g.node("Attention", [y, g.weight([hidden, 3 * hidden]), g.weight([3 * hidden], "bias"),
                                                  mask, past], outputs=["attn_output", "present_0"], domain=MS,
                                    num_heads=heads, unidirectional=1)
                attention = g.last
                with g.scope("c_proj"):
                    a = g.node("MatMul", [a, g.weight([hidden, hidden])])
            with g.scope("ln_2"):
                y, _, _, x = g.skip_layer_norm(a, x, hidden, 1e-5, outputs=4)
            with g.scope("mlp/c_fc"):
                y = g.fused_gelu(y, hidden, 4 * hidden, "FastGelu")
            with g.scope("mlp/c_proj"):
                y = g.linear(y, 4 * hidden, hidden)
            x = g.node("Add", [x, y])
    logits = gpt2_lm_head(g, x, hidden, vocab, outputs=["logits"])
    g.output(logits)
    g.output(present)
    g.attention = attention
    return g


def ort_whisper_cross_mha(hidden=32, heads=4):
    """Whisper's decoder cross-attention after onnxruntime's optimizer: q (MatMul + Add, scaled), k (MatMul,
    no bias) and v (MatMul + Add) projected outside, com.microsoft MultiHeadAttention on [B, S, H] query and
    [B, L, H] key/value, out_proj."""
    g = Graph(opset=14, domains={MS: 1}, producer=("onnxruntime.transformers", "1.17.0"))
    x = g.input("hidden_states", ["batch_size", "decoder_sequence_length", hidden])
    memory = g.input("encoder_hidden_states", ["batch_size", "encoder_sequence_length", hidden])
    with g.scope("decoder/layers.0/encoder_attn"):
        with g.scope("q_proj"):
            q = g.linear(x, hidden, hidden)
        with g.scope("k_proj"):
            k = g.linear(memory, hidden, hidden, bias=False)
        with g.scope("v_proj"):
            v = g.linear(memory, hidden, hidden)
        a = g.node("MultiHeadAttention", [q, k, v], domain=MS, num_heads=heads)
        attention = g.last
        with g.scope("out_proj"):
            y = g.linear(a, hidden, hidden)
    g.output(y)
    g.attention = attention
    return g


def genai_llama_gqa(hidden=64, heads=4, kv_heads=2, ffn=128, vocab=100, max_positions=64):
    """onnxruntime-genai's builder for a LLaMA layer: input_ids, attention_mask [batch_size,
    total_sequence_length], past_key_values.0.key/value [batch_size, kv_heads, past_sequence_length,
    head_size]; SimplifiedLayerNormalization; q/k/v MatMuls (k, v to kv_heads * head_size); seqlens_k
    (ReduceSum of the mask - 1, int32) and total_sequence_length (Shape of the mask, int32);
    GroupQueryAttention with rotary caches; o_proj; SkipSimplifiedLayerNormalization; SiLU-gated MLP;
    SkipSimplifiedLayerNormalization; lm_head."""
    g = Graph(opset=14, domains={MS: 1}, producer=("onnxruntime-genai", "0.5.0"))
    dh = hidden // heads
    ids = g.input("input_ids", ["batch_size", "sequence_length"], I64)
    mask = g.input("attention_mask", ["batch_size", "total_sequence_length"], I64)
    past = [g.input(f"past_key_values.0.{t}", ["batch_size", kv_heads, "past_sequence_length", dh])
            for t in ("key", "value")]
    with g.scope("model/embed_tokens"):
        x = g.node("Gather", [g.weight([vocab, hidden]), ids])
    with g.scope("model/attn_mask_reformat"):
        seqlens = g.node("Cast", [g.node("Sub", [g.reduce_sum(mask, [1]), g.const(1)])], to=I32)
        total = g.node("Cast", [g.dim(mask, 1)], to=I32)
    with g.scope("model/layers.0"):
        with g.scope("input_layernorm"):
            y = g.rms_norm(x, hidden)
        with g.scope("attn"):
            q, = g.projections(y, ("q_proj",), hidden, heads * dh, bias=False)
            k, v = g.projections(y, ("k_proj", "v_proj"), hidden, kv_heads * dh, bias=False)
            a = g.node("GroupQueryAttention",
                       [q, k, v, past[0], past[1], seqlens, total, g.weight([max_positions, dh // 2], "cos_cache"),
                        g.weight([max_positions, dh // 2], "sin_cache")],
                       outputs=["attn_output", "present.0.key", "present.0.value"], domain=MS, num_heads=heads,
                       kv_num_heads=kv_heads, do_rotary=1, local_window_size=-1)[0]
            attention = g.last
            with g.scope("o_proj"):
                a = g.node("MatMul", [a, g.weight([heads * dh, hidden])])
        with g.scope("post_attention_layernorm"):
            y, _, _, x = g.node("SkipSimplifiedLayerNormalization", [a, x, g.weight([hidden])], outputs=4, domain=MS,
                                epsilon=1e-6)
        y = llama_mlp(g, y, hidden, ffn)
    with g.scope("model/norm"):
        x, _, _, _ = g.node("SkipSimplifiedLayerNormalization", [y, x, g.weight([hidden])], outputs=4, domain=MS,
                            epsilon=1e-6)
    with g.scope("lm_head"):
        logits = g.node("MatMul", [x, g.weight([hidden, vocab])], outputs=["logits"])
    g.output(logits)
    g.output("present.0.key")
    g.output("present.0.value")
    g.attention = attention
    return g


def embed_layer_norm_projection(hidden=32, out=48, vocab=100, max_positions=64):
    """com.microsoft EmbedLayerNormalization (word, position and segment gathers, adds, LayerNorm) followed by
    one projection MatMul."""
    g = Graph(opset=14, domains={MS: 1}, producer=("onnxruntime.transformers", "1.17.0"))
    ids = g.input("input_ids", ["batch_size", "sequence_length"], I32)
    segments = g.input("segment_ids", ["batch_size", "sequence_length"], I32)
    with g.scope("embeddings"):
        x, _ = g.embed_layer_norm(ids, segments, vocab, max_positions, hidden, "segment_embeddings")
        embed = g.last
    with g.scope("proj"):
        y = g.node("MatMul", [x, g.weight([hidden, out])])
    g.output(y)
    g.embed = embed
    return g


def matmul_nbits(seq=8, k=64, n=32, n2=48, block_size=32):
    """onnxruntime-genai's int4 weights: two com.microsoft MatMulNBits (bits 4, block_size 32, uint8 B
    [N, K / block_size, block_size / 2], float scales and uint8 zero points per block) with a SiLU between."""
    g = Graph(opset=14, domains={MS: 1}, producer=("onnxruntime-genai", "0.5.0"))
    x = g.input("hidden_states", ["batch_size", "sequence_length", k])
    names = []
    for tag, kk, nn in (("up_proj", k, n), ("down_proj", n, n2)):
        blocks = (kk + block_size - 1) // block_size
        with g.scope(f"mlp/{tag}"):
            b = g.weight([nn, blocks, block_size // 2], "weight_Q4", dtype=np.uint8)
            scales = g.weight([nn * blocks], "weight_scales")
            zeros = g.weight([nn * ((blocks + 1) // 2)], "weight_zp", dtype=np.uint8)
            x = g.node("MatMulNBits", [x, b, scales, zeros], domain=MS, K=kk, N=nn, bits=4, block_size=block_size,
                       accuracy_level=4)
            names.append(g.last)
        if tag == "up_proj":
            x = g.silu(x)
    g.output(x)
    g.nbits = names
    return g


def onnx_attention_op23(hidden=32, heads=4):
    """torch.onnx (dynamo, opset 23) writing scaled_dot_product_attention as the ONNX Attention operator:
    projections, Reshape to [B, S, heads, dh] and Transpose to [B, heads, S, dh], Attention (causal), back,
    out projection."""
    g = Graph(opset=23, producer=("pytorch", "2.9.0"))
    dh = hidden // heads
    x = g.input("x", ["batch_size", "sequence_length", hidden])
    with g.scope("attn"):
        parts = []
        for part in ("q_proj", "k_proj", "v_proj"):
            with g.scope(part):
                p = g.reshape_const(g.linear(x, hidden, hidden), [1, -1, heads, dh])
                parts.append(g.transpose(p, [0, 2, 1, 3]))
        y = g.node("Attention", parts, is_causal=1)
        attention = g.last
        y = g.reshape_const(g.transpose(y, [0, 2, 1, 3]), [1, -1, hidden])
        with g.scope("o_proj"):
            y = g.linear(y, hidden, hidden)
    g.output(y)
    g.attention = attention
    return g


def einsum_attention(hidden=32, heads=4):
    """Attention written with einsum (as torch.onnx exports torch.einsum): "bij,jk->bik" projections,
    "bhid,bhjd->bhij" scores, softmax, "bhij,bhjd->bhid" context, "bij,jk->bik" output."""
    g = Graph(opset=14)
    dh = hidden // heads
    x = g.input("x", [1, "sequence_length", hidden])
    with g.scope("attn"):
        parts = []
        for part in ("q", "k", "v"):
            with g.scope(part):
                p = g.node("Einsum", [x, g.weight([hidden, hidden])], equation="bij,jk->bik")
                parts.append(g.transpose(g.reshape_const(p, [1, -1, heads, dh]), [0, 2, 1, 3]))
        scores = g.node("Einsum", parts[:2], equation="bhid,bhjd->bhij")
        qk = g.last
        y = g.node("Einsum", [g.node("Softmax", [scores], axis=-1), parts[2]], equation="bhij,bhjd->bhid")
        av = g.last
        y = g.reshape_const(g.transpose(y, [0, 2, 1, 3]), [1, -1, hidden])
        with g.scope("o"):
            y = g.node("Einsum", [y, g.weight([hidden, hidden])], equation="bij,jk->bik")
    g.output(y)
    g.attention_nodes = [{"qk": qk, "av": av}]
    return g


def static_loop(seq=8, hidden=32, trips=3):
    """A refinement loop with a static trip count (torch.jit.script for i in range(3) exported): Loop over a
    constant M with a constant true condition, carrying [1, S, H] through MatMul (weights of the outer graph)
    and Relu; then a projection after the loop."""
    g = Graph(opset=14)
    x = g.input("x", [1, seq, hidden])
    body = g.child()
    with body.scope("loop_body"):
        h = body.node("Relu", [body.node("MatMul", ["h_in", g.weight([hidden, hidden], "refine.weight")])])
        cond = body.node("Identity", ["cond_in"])
    graph = body.body("loop_body", [(cond, BOOL), (h, F32)],
                      inputs=[("iteration_num", I64, []), ("cond_in", BOOL, []), ("h_in", F32)])
    y = g.node("Loop", [g.const(trips), g.const(True, np.bool_), x], name="/refine/Loop", body=graph)
    with g.scope("head"):
        y = g.node("MatMul", [y, g.weight([hidden, 16])])
    g.output(y)
    return g


def detection_postprocess(size=16, classes=2):
    """An SSD-style head and its post-processing: Conv 3x3 stride 2, box Conv 1x1 (4) and class Conv 1x1,
    reshaped to boxes [1, N, 4] and scores [1, classes, N]; TopK of the scores and NonMaxSuppression."""
    g = Graph(opset=14)
    x = g.input("images", [1, 3, size, size])
    n = (size // 2) ** 2
    with g.scope("backbone"):
        y = g.node("Relu", [g.conv(x, 3, 8, 3, stride=2)])
    with g.scope("box_head"):
        boxes = g.reshape_const(g.transpose(g.conv(y, 8, 4, 1), [0, 2, 3, 1]), [1, n, 4])
    with g.scope("class_head"):
        scores = g.reshape_const(g.node("Sigmoid", [g.conv(y, 8, classes, 1)]), [1, classes, n])
    values, indices = g.node("TopK", [scores, g.const([10])], outputs=2, name="/postprocess/TopK", axis=2)
    selected = g.node("NonMaxSuppression", [boxes, scores, g.const([10]), g.fconst([0.5]), g.fconst([0.05])],
                      name="/postprocess/NonMaxSuppression")
    g.output(values)
    g.output(indices, I64)
    g.output(selected, I64)
    return g
