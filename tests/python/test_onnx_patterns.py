"""ONNX models in the patterns real exporters emit (torch.onnx, Hugging Face's optimum, onnxruntime's
transformer optimizer and quantizer, onnxruntime-genai's builder), built with ONNX's Python helper
(onnx_patterns.py), imported by `ergon import onnx` / `ergon workload show`, and their MACs compared with
figures counted by hand here (docs/workloads.md, "Importing real models (ONNX)").

Conventions: MACs per image; a MatMul/Gemm with constant weights over S rows is S*K*N; QK^T and AV are
matmuls (heads*S*L*dh each, L the keys); softmax, LayerNorm, GELU and element-wise work are 0 MACs.
Unless a test says otherwise: hidden H = 32, heads = 4, head size dh = 8, feed-forward 128.

Run by ctest (python.onnx_patterns) with ERGON_BINARY the ergon executable; needs the onnx, numpy and yaml
Python packages (Debian's python3-onnx, python3-numpy, python3-yaml: scripts/setup.sh). The classes
FusedAttentionOperators and NewOperators hold the operators of issue 38 being added.
"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

import yaml

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import onnx_patterns as op  # noqa: E402

ERGON = os.environ.get("ERGON_BINARY", "ergon")


class Run:
    """What one ergon command gave: its exit status, stdout and stderr."""

    def __init__(self, completed):
        self.status, self.stdout, self.stderr = completed.returncode, completed.stdout, completed.stderr


class OnnxPatternCase(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="ergon_onnx_patterns_")
        self.dir = pathlib.Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def save(self, graph, name="model.onnx"):
        return graph.save(self.dir / name)

    def ergon(self, *args):
        return Run(subprocess.run([ERGON, *map(str, args)], capture_output=True, text=True, timeout=60))

    def show(self, graph, *options, name="model.onnx"):
        """`ergon workload show MODEL --format json`: the parsed result (the test fails with ergon's stderr)."""
        result = self.ergon("workload", "show", self.save(graph, name), "--format", "json", *options)
        self.assertEqual(result.status, 0, f"workload show {' '.join(map(str, options))} failed:\n{result.stderr}")
        shown = json.loads(result.stdout)
        shown["stderr"] = result.stderr
        return shown

    def import_yaml(self, graph, *options):
        """`ergon import onnx MODEL -o w.yaml`: (the YAML, stderr)."""
        out = self.dir / "w.yaml"
        result = self.ergon("import", "onnx", self.save(graph), "-o", out, *options)
        self.assertEqual(result.status, 0, f"import onnx {' '.join(map(str, options))} failed:\n{result.stderr}")
        return yaml.safe_load(out.read_text()), result.stderr

    def layer(self, shown, name):
        layers = {entry["name"]: entry for entry in shown["layers"]}
        self.assertIn(name, layers, f"no layer {name!r}; layers: {sorted(layers)}")
        return layers[name]

    def assertMacs(self, shown, expected):
        layers = ", ".join(f"{entry['name']}={entry['macs']}" for entry in shown["layers"] if entry["macs"])
        self.assertEqual(shown["total_macs"], expected, f"MACs per image; layers with MACs: {layers}")

    def assertAttention(self, shown, graph, qk, av=None):
        """Per-layer facts: the QK^T and AV products of every attention in `graph` are matmuls of these MACs."""
        for nodes in (graph.attention_nodes.values() if isinstance(graph.attention_nodes, dict)
                      else graph.attention_nodes):
            for key, expected in (("qk", qk), ("av", qk if av is None else av)):
                entry = self.layer(shown, nodes[key])
                self.assertEqual(entry["op"], "matmul", nodes[key])
                self.assertEqual(entry["macs"], expected, nodes[key])


# BERT-base-like layer at H 32, S 8 (MACs per image):
#   Q, K, V: 3 * 8*32*32 = 24576; QK^T: 4*8*8*8 = 2048; AV: 2048; attention output: 8*32*32 = 8192;
#   intermediate: 8*32*128 = 32768; output: 8*128*32 = 32768. Total 102400.
BERT_S8 = 3 * 8 * 32 * 32 + 2 * (4 * 8 * 8 * 8) + 8 * 32 * 32 + 8 * 32 * 128 + 8 * 128 * 32


class EncoderPatterns(OnnxPatternCase):
    def test_bert_layer_decomposed_layernorm(self):
        # opset 14: LayerNorm as ReduceMean/Sub/Pow/ReduceMean/Add/Sqrt/Div/Mul/Add; GELU as Div/Erf/Add/Mul/Mul.
        g = op.bert("decomposed")
        shown = self.show(g, "--input-shape", "input_ids=1x8")
        self.assertMacs(shown, BERT_S8)
        self.assertAttention(shown, g, qk=4 * 8 * 8 * 8)  # heads*S*S*dh

    def test_bert_layer_fused_layernorm(self):
        g = op.bert("fused")  # opset 17 LayerNormalization
        shown = self.show(g, "--input-shape", "input_ids=1x8")
        self.assertMacs(shown, BERT_S8)
        self.assertAttention(shown, g, qk=4 * 8 * 8 * 8)

    def test_vit_cls_token_expanded_to_the_batch(self):
        # 32x32 image, 8x8 patches: 16 patches + CLS = 17 tokens.
        #   patch conv: 4*4 positions * 32 filters * 3*8*8 = 98304
        #   Q, K, V: 3 * 17*32*32; QK^T, AV: 2 * 4*17*17*8; out: 17*32*32; FFN: 17*32*128 + 17*128*32
        #   classifier on the CLS row: 32*10
        expected = (4 * 4 * 32 * 3 * 8 * 8 + 3 * 17 * 32 * 32 + 2 * 4 * 17 * 17 * 8 + 17 * 32 * 32
                    + 2 * 17 * 32 * 128 + 32 * 10)
        g = op.vit()
        shown = self.show(g, "--input-shape", "pixel_values=1x3x32x32")
        self.assertMacs(shown, expected)
        self.assertAttention(shown, g, qk=4 * 17 * 17 * 8)

    def test_vit_tiny_16_at_full_size(self):
        # ViT-Tiny/16 (DeiT-Ti: hidden 192, 3 heads, MLP 768, 12 layers) at 224x224: 196 patches + CLS = 197.
        #   patch conv: 14*14 positions * 192 filters * 3*16*16 = 28,901,376
        #   per layer: Q, K, V 3 * 197*192*192; QK^T, AV 2 * 3*197*197*64; out 197*192*192;
        #   FFN 2 * 197*192*768 = 102,049,152; classifier on the CLS row 192*1000
        per_layer = 4 * 197 * 192 * 192 + 2 * 3 * 197 * 197 * 64 + 2 * 197 * 192 * 768
        expected = 14 * 14 * 192 * 3 * 16 * 16 + 12 * per_layer + 192 * 1000
        self.assertEqual(expected, 1_253_683_200)  # the figure of the hand-sorted import
        g = op.vit(size=224, patch=16, hidden=192, heads=3, ffn=768, classes=1000, layers=12)
        self.assertMacs(self.show(g, "--input-shape", "pixel_values=1x3x224x224"), expected)

    def test_whisper_encoder_two_conv1d_and_a_layer(self):
        # input_features 16 mels x 32 frames; conv1 (k3, pad 1) keeps 32 frames, conv2 (stride 2) gives 16.
        #   conv1: 32 frames * 32 filters * 16 ch * 3 = 49152; conv2: 16 * 32 * 32 * 3 = 49152
        #   Q, K, V: 3 * 16*32*32; QK^T, AV (bmm over batch*heads): 2 * 4*16*16*8; out: 16*32*32
        #   fc1, fc2: 2 * 16*32*128
        expected = (32 * 32 * 16 * 3 + 16 * 32 * 32 * 3 + 3 * 16 * 32 * 32 + 2 * 4 * 16 * 16 * 8 + 16 * 32 * 32
                    + 2 * 16 * 32 * 128)
        g = op.whisper_encoder()
        shown = self.show(g, "--input-shape", "input_features=1x16x32")
        self.assertMacs(shown, expected)
        self.assertAttention(shown, g, qk=4 * 16 * 16 * 8)

    def test_mobilenet_v3_block_hardswish_and_squeeze_excite(self):
        # 32x32x3 input.
        #   stem 3x3 stride 2 -> 16x16x16: 16*16*16*3*3*3 = 110592
        #   expand 1x1 16->64: 16*16*64*16 = 262144; depthwise 3x3: 16*16*64*9 = 147456
        #   SE fc1 (1x1 on the pooled 64): 64*16 = 1024; fc2: 16*64 = 1024
        #   project 1x1 64->16: 16*16*16*64 = 262144
        expected = 16 * 16 * 16 * 27 + 16 * 16 * 64 * 16 + 16 * 16 * 64 * 9 + 64 * 16 + 16 * 64 + 16 * 16 * 16 * 64
        shown = self.show(op.mobilenet_v3_block(), "--input-shape", "input=1x3x32x32")
        self.assertMacs(shown, expected)

    def test_mobilevit_block_unfold_attention_fold(self):
        # 16 channels, 8x8, d = 32, 2x2 patches: P = 4 sequences of N = 16 patches.
        #   conv 3x3 16->16: 8*8*16*9*16 = 147456; conv 1x1 16->32: 8*8*32*16 = 32768
        #   per sequence: Q, K, V 3*16*32*32; QK^T, AV 2*4*16*16*8; out 16*32*32; FFN 2*16*32*64; times P = 4
        #   conv_projection 1x1 32->16: 8*8*16*32 = 32768; fusion 3x3 on the 32-channel concat: 8*8*16*9*32
        transformer = 3 * 16 * 32 * 32 + 2 * 4 * 16 * 16 * 8 + 16 * 32 * 32 + 2 * 16 * 32 * 64
        expected = 8 * 8 * 16 * 9 * 16 + 8 * 8 * 32 * 16 + 4 * transformer + 8 * 8 * 16 * 32 + 8 * 8 * 16 * 9 * 32
        g = op.mobilevit_block()
        shown = self.show(g, "--input-shape", "pixel_values=1x16x8x8")
        self.assertMacs(shown, expected)
        self.assertAttention(shown, g, qk=4 * 4 * 16 * 16 * 8)  # the 4 patch positions x heads*N*N*dh

    def test_static_qdq_int8_conv(self):
        # QuantizeLinear/DequantizeLinear around every activation and on the int8 weights and int32 bias:
        #   conv1 3->8 3x3 pad 1 on 16x16: 16*16*8*3*3*3 = 55296; conv2 8->16 3x3 stride 2: 8*8*16*3*3*8 = 73728
        shown = self.show(op.qdq_conv(), "--input-shape", "input=1x3x16x16")
        self.assertMacs(shown, 16 * 16 * 8 * 27 + 8 * 8 * 16 * 72)
        self.assertEqual(self.layer(shown, "/conv1/Conv")["op"], "conv")
        self.assertEqual(self.layer(shown, "/conv2/Conv")["macs"], 8 * 8 * 16 * 72)


class DecoderPatterns(OnnxPatternCase):
    # GPT-2 at H 32, vocabulary 100, one block (S query tokens, L = past + S keys):
    #   c_attn S*32*96; QK^T, AV 4*S*L*8 each; c_proj S*32*32; c_fc S*32*128; mlp c_proj S*128*32; lm_head S*32*100
    @staticmethod
    def gpt2_macs(s, past):
        keys = past + s
        return s * 32 * 96 + 2 * 4 * s * keys * 8 + s * 32 * 32 + s * 32 * 128 + s * 128 * 32 + s * 32 * 100

    def test_gpt2_prefill_with_the_causal_mask_sliced_from_the_bias_table(self):
        # S = 8: 24576 + 2*2048 + 8192 + 32768 + 32768 + 25600 = 128000
        g = op.gpt2(past=False)
        shown = self.show(g, "--input-shape", "input_ids=1x8")
        self.assertMacs(shown, 8 * 32 * 96 + 2 * 4 * 8 * 8 * 8 + 8 * 32 * 32 + 2 * 8 * 32 * 128 + 8 * 32 * 100)
        self.assertEqual(self.gpt2_macs(8, 0), 128000)
        self.assertAttention(shown, g, qk=4 * 8 * 8 * 8)

    def test_kv_cache_decode_step_grows_linearly_with_the_past(self):
        # One new token (S = 1) over past 7 and past 15: attention 2 * 4*1*(P+1)*8 = 512 and 1024;
        # the rest 1*32*96 + 1*32*32 + 1*32*128 + 1*128*32 + 1*32*100 = 15488 either way.
        totals = {}
        for past in (7, 15):
            g = op.gpt2(past=True)
            shown = self.show(g, "--input-shape", "input_ids=1x1",
                              "--input-shape", f"past_key_values.0.key=1x4x{past}x8",
                              "--input-shape", f"attention_mask=1x{past + 1}")
            expected = (1 * 32 * 96 + 2 * 4 * 1 * (past + 1) * 8 + 1 * 32 * 32 + 1 * 32 * 128 + 1 * 128 * 32
                        + 1 * 32 * 100)
            self.assertEqual(expected, self.gpt2_macs(1, past))
            self.assertMacs(shown, expected)
            self.assertAttention(shown, g, qk=4 * 1 * (past + 1) * 8)
            totals[past] = shown["total_macs"]
        self.assertEqual(totals[15] - totals[7], 2 * 4 * 1 * 8 * 8)  # 8 more keys, two products

    def test_merged_decoder_if_folded_by_use_cache_branch(self):
        # optimum's merged decoder: use_cache_branch=1 takes the with-past branch: the decode step at past 7,
        # 1*32*96 + 2*4*1*8*8 + 1*32*32 + 1*32*128 + 1*128*32 + 1*32*100 = 16000.
        options = ["--input-shape", "input_ids=1x1", "--input-shape", "past_key_values.0.key=1x4x7x8",
                   "--input-shape", "attention_mask=1x8", "--input-value", "use_cache_branch=1"]
        shown = self.show(op.gpt2_merged(), *options)
        self.assertMacs(shown, 16000)
        self.assertIn("then_branch", shown["stderr"])
        data, stderr = self.import_yaml(op.gpt2_merged(), *options)
        self.assertIn("optimum::if", stderr)
        self.assertFalse(data.get("skipped_nodes"))

    def test_whisper_decoder_layer_with_cross_attention(self):
        # T = 4 decoder tokens, 16 encoder states, vocabulary 64:
        #   self: Q, K, V 3*4*32*32; QK^T, AV 2*4*4*4*8; out 4*32*32
        #   cross: Q 4*32*32; K, V over the encoder 2*16*32*32; QK^T, AV 2*4*4*16*8; out 4*32*32
        #   fc1, fc2 2*4*32*128; proj_out 4*32*64
        expected = (3 * 4 * 32 * 32 + 2 * 4 * 4 * 4 * 8 + 4 * 32 * 32
                    + 4 * 32 * 32 + 2 * 16 * 32 * 32 + 2 * 4 * 4 * 16 * 8 + 4 * 32 * 32
                    + 2 * 4 * 32 * 128 + 4 * 32 * 64)
        g = op.whisper_decoder()
        shown = self.show(g, "--input-shape", "input_ids=1x4", "--input-shape", "encoder_hidden_states=1x16x32")
        self.assertMacs(shown, expected)
        for block, keys in (("self_attn", 4), ("encoder_attn", 16)):
            for key in ("qk", "av"):
                self.assertEqual(self.layer(shown, g.attention_nodes[block][key])["macs"], 4 * 4 * keys * 8)


class ShapeDerivedConstants(OnnxPatternCase):
    def test_detr_learned_queries_expanded_to_the_batch(self):
        # 8 queries (their position embeddings expanded to the memory's batch) over 16 memory rows:
        #   q 8*32*32; k, v 2*16*32*32; QK^T, AV 2*4*8*16*8; out 8*32*32
        g = op.deformable_detr_queries()
        shown = self.show(g)
        self.assertMacs(shown, 8 * 32 * 32 + 2 * 16 * 32 * 32 + 2 * 4 * 8 * 16 * 8 + 8 * 32 * 32)
        self.assertAttention(shown, g, qk=4 * 8 * 16 * 8)

    def test_causal_mask_built_at_run_time_without_trilu(self):
        # S = 16: Q, K, V 3*16*32*32; QK^T, AV 2*4*16*16*8; out 16*32*32. The mask is free.
        g = op.opt_decoder_runtime_mask()
        shown = self.show(g, "--input-shape", "input_ids=1x16")
        self.assertMacs(shown, 3 * 16 * 32 * 32 + 2 * 4 * 16 * 16 * 8 + 16 * 32 * 32)
        self.assertAttention(shown, g, qk=4 * 16 * 16 * 8)

    def test_position_table_512x128_sliced_by_the_sequence_length(self):
        # S = 16 rows of 128 after the add: projection 16*128*64 = 131072.
        shown = self.show(op.position_table_slice(), "--input-shape", "inputs_embeds=1x16x128")
        self.assertMacs(shown, 16 * 128 * 64)
        added = self.layer(shown, "/Add")  # the embeddings + the sliced table: 16 x 128 elements, one op each
        self.assertEqual((added["output_shape"], added["vector_ops"]), ([16, 1, 128], 16 * 128))


class NewerAndQuantisedOperators(OnnxPatternCase):
    def test_gelu_at_opset_20(self):
        # fc1 8*32*128 and fc2 8*128*32 around two Gelu (exact and tanh): 65536.
        shown = self.show(op.gelu_opset20())
        self.assertMacs(shown, 8 * 32 * 128 + 8 * 128 * 32)
        self.assertEqual(sum(1 for entry in shown["layers"] if entry["op"] == "activation"), 2)  # the two Gelu

    def test_dynamic_quantisation_convinteger_matmulinteger(self):
        # DynamicQuantizeLinear before each: ConvInteger 3->8 3x3 pad 1 on 16x16: 16*16*8*27 = 55296;
        # MatMulInteger over the 256 positions, 8 -> 16: 256*8*16 = 32768.
        shown = self.show(op.dynamic_quantized())
        self.assertMacs(shown, 16 * 16 * 8 * 27 + 256 * 8 * 16)
        self.assertEqual(self.layer(shown, "/conv/Conv_quant")["macs"], 16 * 16 * 8 * 27)
        self.assertEqual(self.layer(shown, "/fc/MatMul_quant")["macs"], 256 * 8 * 16)
        quantize = self.layer(shown, "input_QuantizeLinear")
        self.assertEqual((quantize["op"], quantize["macs"]), ("elementwise", 0))

    def test_qoperator_qlinearconv_qlinearmatmul(self):
        # QLinearConv 3->8 3x3 pad 1: 16*16*8*27 = 55296; QLinearConv 8->16 3x3 stride 2: 8*8*16*72 = 73728;
        # QLinearMatMul on the 16*8*8 = 1024 flattened features to 10 classes: 1024*10 = 10240.
        shown = self.show(op.qoperator_static())
        self.assertMacs(shown, 16 * 16 * 8 * 27 + 8 * 8 * 16 * 72 + 1024 * 10)
        self.assertEqual(self.layer(shown, "/fc/MatMul_quant")["macs"], 1024 * 10)


class OnnxruntimeFusedOperators(OnnxPatternCase):
    def test_skip_layer_norm_and_bias_gelu(self):
        # The BERT layer at S 8 (BERT_S8): SkipLayerNormalization and BiasGelu are vector work.
        g = op.ort_bert_fused(gelu="BiasGelu")
        shown = self.show(g, "--input-shape", "hidden_states=1x8x32")
        self.assertMacs(shown, BERT_S8)
        self.assertAttention(shown, g, qk=4 * 8 * 8 * 8)

    def test_skip_layer_norm_and_fast_gelu(self):
        shown = self.show(op.ort_bert_fused(gelu="FastGelu"), "--input-shape", "hidden_states=1x8x32")
        self.assertMacs(shown, BERT_S8)
        self.assertFalse([entry for entry in shown["layers"] if entry["name"].endswith("FastGelu")
                          and entry["macs"]])

    def test_simplified_layer_norms_and_rotary_embedding(self):
        # LLaMA layer, S 8, MLP 64, vocabulary 100:
        #   q, k, v 3*8*32*32; QK^T, AV 2*4*8*8*8; o_proj 8*32*32; gate, up 2*8*32*64; down 8*64*32;
        #   lm_head 8*32*100. RMSNorms and the rotary embeddings are vector work.
        # SimplifiedLayerNormalization in the ONNX domain, as onnxruntime's optimizer and onnxruntime-genai
        # write it, and in com.microsoft.
        for domain in ("", op.MS):
            with self.subTest(simplified_layer_norm_domain=domain or "ai.onnx"):
                g = op.ort_llama_fused(rms_domain=domain)
                shown = self.show(g, "--input-shape", "input_ids=1x8")
                self.assertMacs(shown, 3 * 8 * 32 * 32 + 2 * 4 * 8 * 8 * 8 + 8 * 32 * 32 + 2 * 8 * 32 * 64
                                + 8 * 64 * 32 + 8 * 32 * 100)
                self.assertAttention(shown, g, qk=4 * 8 * 8 * 8)
                rotary = [entry for entry in shown["layers"] if "RotaryEmbedding" in entry["name"]]
                self.assertEqual(len(rotary), 2)
                self.assertTrue(all(entry["macs"] == 0 and entry["vector_ops"] > 0 for entry in rotary))

    def test_layer_normalization_below_opset_17_as_the_optimizer_leaves_it(self):
        # onnxruntime's optimizer writes LayerNormalization into opset-14 models. S 8: c_fc 8*32*128, c_proj
        # 8*128*32; the norms and FastGelu are vector work.
        for opset in (17, 14):
            with self.subTest(opset=opset):
                shown = self.show(op.ort_gpt2_mlp(opset=opset), "--input-shape", "hidden_states=1x8x32")
                self.assertMacs(shown, 8 * 32 * 128 + 8 * 128 * 32)


class InputShapes(OnnxPatternCase):
    @staticmethod
    def bert_macs(s):
        # Q, K, V 3*S*32*32; QK^T, AV 2*4*S*S*8; out S*32*32; FFN 2*S*32*128
        return 3 * s * 32 * 32 + 2 * 4 * s * s * 8 + s * 32 * 32 + 2 * s * 32 * 128

    def test_a_symbol_shared_by_several_inputs_is_pinned_once(self):
        # input_ids=1x16 also sizes attention_mask and token_type_ids ([batch_size, sequence_length]).
        shown = self.show(op.bert("fused"), "--input-shape", "input_ids=1x16")
        self.assertMacs(shown, self.bert_macs(16))
        result = self.ergon("workload", "show", self.dir / "model.onnx", "--input-shape", "input_ids=1x16",
                            "--input-shape", "attention_mask=1x8")
        self.assertNotEqual(result.status, 0)
        self.assertIn("input_ids", result.stderr)
        self.assertIn("attention_mask", result.stderr)

    def test_batch_named_dimension_in_a_non_leading_position(self):
        # nn.TransformerEncoderLayer, batch_first=False: src [sequence, batch, 32], S = 16, one image.
        #   in_proj 16*32*96; QK^T, AV (bmm over batch*heads) 2*4*16*16*8; out_proj 16*32*32; FFN 2*16*32*64
        expected = 16 * 32 * 96 + 2 * 4 * 16 * 16 * 8 + 16 * 32 * 32 + 2 * 16 * 32 * 64
        g = op.seq_first_encoder_layer()
        shown = self.show(g, "--input-shape", "src=16x1x32")
        self.assertMacs(shown, expected)
        self.assertEqual({entry["batch"] for entry in shown["layers"]}, {1})
        # Only the batch free: it becomes 1 wherever it is, with the same figures.
        shown = self.show(op.seq_first_encoder_layer(seq=16), name="fixed_sequence.onnx")
        self.assertMacs(shown, expected)
        self.assertEqual({entry["batch"] for entry in shown["layers"]}, {1})

    def test_doubling_the_sequence_quadruples_attention(self):
        g = op.bert("fused")
        s8 = self.show(g, "--input-shape", "input_ids=1x8")
        s16 = self.show(g, "--input-shape", "input_ids=1x16")
        self.assertMacs(s8, self.bert_macs(8))
        self.assertMacs(s16, self.bert_macs(16))
        nodes = g.attention_nodes[0]
        for key in ("qk", "av"):
            self.assertEqual(self.layer(s8, nodes[key])["macs"], 4 * 8 * 8 * 8)
            self.assertEqual(self.layer(s16, nodes[key])["macs"], 4 * 16 * 16 * 8)  # 4x
        query = "/encoder/layer.0/attention/self/query/MatMul"
        self.assertEqual(self.layer(s16, query)["macs"], 2 * self.layer(s8, query)["macs"])  # projections 2x

    def test_batch_4_gives_4x(self):
        one = self.show(op.bert("fused"), "--input-shape", "input_ids=1x8")
        four = self.show(op.bert("fused"), "--input-shape", "input_ids=4x8", name="batch4.onnx")
        self.assertMacs(one, self.bert_macs(8))
        self.assertMacs(four, self.bert_macs(8))  # per image
        self.assertEqual({entry["batch"] for entry in four["layers"]}, {4})
        self.assertEqual(sum(entry["macs"] * entry["batch"] for entry in four["layers"]), 4 * self.bert_macs(8))


class UnsupportedOperators(OnnxPatternCase):
    def test_a_com_microsoft_operator_is_listed_with_what_it_leaves_unsized(self):
        g = op.ngram_blocked_head()
        path = self.save(g)
        refused = self.ergon("import", "onnx", path, "-o", self.dir / "w.yaml", "--input-shape", "input_ids=1x5")
        self.assertNotEqual(refused.status, 0)
        self.assertIn("NGramRepeatBlock", refused.stderr)
        self.assertIn("ngram_repeat_block", refused.stderr)
        self.assertIn("com.microsoft", refused.stderr)
        self.assertIn("/Softmax", refused.stderr)  # reads the unsized scores
        data, stderr = self.import_yaml(g, "--input-shape", "input_ids=1x5", "--skip-unsupported")
        self.assertIn("ngram_repeat_block", stderr)
        skipped = {entry["node"]: entry for entry in data["skipped_nodes"]}
        self.assertEqual(skipped["ngram_repeat_block"]["op"], "NGramRepeatBlock")
        # What is left: lm_head 32*64 = 2048.
        shown = self.show(g, "--input-shape", "input_ids=1x5", "--skip-unsupported")
        self.assertMacs(shown, 32 * 64)

    def test_an_unknown_domain_operator_is_named_and_skippable(self):
        g = op.custom_decoder_head()
        refused = self.ergon("workload", "show", self.save(g), "--input-shape", "images=1x3x16x16")
        self.assertNotEqual(refused.status, 0)
        self.assertIn("DecodeBoxes", refused.stderr)
        self.assertIn("decode_boxes", refused.stderr)
        data, stderr = self.import_yaml(g, "--input-shape", "images=1x3x16x16", "--skip-unsupported")
        self.assertIn("decode_boxes", stderr)
        self.assertEqual([(entry["node"], entry["op"]) for entry in data["skipped_nodes"]],
                         [("decode_boxes", "DecodeBoxes")])
        # Conv 3x3 stride 2 3->8 on 16x16: 8*8*8*27 = 13824; box conv 1x1 8->4: 8*8*4*8 = 2048.
        shown = self.show(g, "--input-shape", "images=1x3x16x16", "--skip-unsupported")
        self.assertMacs(shown, 8 * 8 * 8 * 27 + 8 * 8 * 4 * 8)


# --- Group B: operators being added (issue 38); written with their intended semantics ------------------------

class FusedAttentionOperators(OnnxPatternCase):
    def test_com_microsoft_attention_bert(self):
        # Attention: QKV S*H*3H = 8*32*96 + QK^T 4*8*8*8 + AV 4*8*8*8 (no output projection: the MatMul after it);
        # then out 8*32*32, FFN 2*8*32*128 = BERT_S8. EmbedLayerNormalization and the rest: 0.
        g = op.ort_bert_attention()
        shown = self.show(g, "--input-shape", "input_ids=1x8")
        self.assertMacs(shown, BERT_S8)
        attention = [entry for entry in shown["layers"] if entry["name"].startswith(g.attention)]
        self.assertEqual(sum(entry["macs"] for entry in attention), 8 * 32 * 96 + 2 * 4 * 8 * 8 * 8)

    def test_com_microsoft_attention_with_past(self):
        # GPT-2 decode step (S 1) over past P: Attention 1*32*96 + 2*4*1*(P+1)*8; c_proj 1*32*32;
        # c_fc 1*32*128; mlp proj 1*128*32; lm_head 1*32*100.
        totals = {}
        for past in (7, 15):
            shown = self.show(op.ort_gpt2_attention_past(), "--input-shape", "input_ids=1x1",
                              "--input-shape", f"past_0=2x1x4x{past}x8",
                              "--input-shape", f"attention_mask=1x{past + 1}")
            self.assertMacs(shown, 1 * 32 * 96 + 2 * 4 * 1 * (past + 1) * 8 + 1 * 32 * 32 + 1 * 32 * 128
                            + 1 * 128 * 32 + 1 * 32 * 100)
            totals[past] = shown["total_macs"]
        self.assertEqual(totals[15] - totals[7], 2 * 4 * 8 * 8)

    def test_multi_head_attention_cross(self):
        # Decoder S 4 over encoder L 16: q 4*32*32; k, v 2*16*32*32; MultiHeadAttention 2*4*4*16*8; out 4*32*32.
        g = op.ort_whisper_cross_mha()
        shown = self.show(g, "--input-shape", "hidden_states=1x4x32",
                          "--input-shape", "encoder_hidden_states=1x16x32")
        self.assertMacs(shown, 4 * 32 * 32 + 2 * 16 * 32 * 32 + 2 * 4 * 4 * 16 * 8 + 4 * 32 * 32)
        attention = [entry for entry in shown["layers"] if entry["name"].startswith(g.attention)]
        self.assertEqual(sum(entry["macs"] for entry in attention), 2 * 4 * 4 * 16 * 8)

    def test_group_query_attention_genai(self):
        # H 64, 4 heads, 2 KV heads, dh 16, MLP 128, vocabulary 100; S 4 new tokens over past 12 (L = 16):
        #   q 4*64*64; k, v 2*4*64*32; GQA 2*4*4*(12+4)*16; o 4*64*64; gate, up 2*4*64*128; down 4*128*64;
        #   lm_head 4*64*100
        g = op.genai_llama_gqa()
        shown = self.show(g, "--input-shape", "input_ids=1x4", "--input-shape", "attention_mask=1x16",
                          "--input-shape", "past_key_values.0.key=1x2x12x16")
        self.assertMacs(shown, 4 * 64 * 64 + 2 * 4 * 64 * 32 + 2 * 4 * 4 * 16 * 16 + 4 * 64 * 64 + 2 * 4 * 64 * 128
                        + 4 * 128 * 64 + 4 * 64 * 100)
        attention = [entry for entry in shown["layers"] if entry["name"].startswith(g.attention)]
        self.assertEqual(sum(entry["macs"] for entry in attention), 2 * 4 * 4 * 16 * 16)

    def test_embed_layer_normalization(self):
        # Gathers, adds and LayerNorm: 0 MACs; the projection after it 8*32*48.
        shown = self.show(op.embed_layer_norm_projection(), "--input-shape", "input_ids=1x8")
        self.assertMacs(shown, 8 * 32 * 48)

    def test_onnx_attention_opset_23(self):
        # Q, K, V [1, 4, 8, 8]: projections 3*8*32*32; Attention 2*4*8*8*8; out 8*32*32.
        g = op.onnx_attention_op23()
        shown = self.show(g, "--input-shape", "x=1x8x32")
        self.assertMacs(shown, 3 * 8 * 32 * 32 + 2 * 4 * 8 * 8 * 8 + 8 * 32 * 32)
        attention = [entry for entry in shown["layers"] if entry["name"].startswith(g.attention)]
        self.assertEqual(sum(entry["macs"] for entry in attention), 2 * 4 * 8 * 8 * 8)

    def test_empty_kv_cache(self):
        # GPT-2 with past, the past pinned to length 0 and S 4: attention over S alone.
        #   c_attn 4*32*96; QK^T, AV 2*4*4*4*8; c_proj 4*32*32; c_fc, mlp proj 2*4*32*128; lm_head 4*32*100
        shown = self.show(op.gpt2(past=True), "--input-shape", "input_ids=1x4",
                          "--input-shape", "past_key_values.0.key=1x4x0x8", "--input-shape", "attention_mask=1x4")
        self.assertMacs(shown, 4 * 32 * 96 + 2 * 4 * 4 * 4 * 8 + 4 * 32 * 32 + 2 * 4 * 32 * 128 + 4 * 32 * 100)


class NewOperators(OnnxPatternCase):
    def test_matmul_nbits_records_4_bit_weights(self):
        # S 8: up 8*64*32 + down 8*32*48.
        g = op.matmul_nbits()
        shown = self.show(g, "--input-shape", "hidden_states=1x8x64")
        self.assertMacs(shown, 8 * 64 * 32 + 8 * 32 * 48)
        self.assertEqual(self.layer(shown, g.nbits[0])["macs"], 8 * 64 * 32)
        data, _ = self.import_yaml(g, "--input-shape", "hidden_states=1x8x64")
        layers = {entry["name"]: entry for entry in data["layers"]}
        for name in g.nbits:
            self.assertEqual(layers[name].get("weight_bits"), 4, name)

    def test_einsum_attention_and_projection(self):
        # S 8: "bij,jk->bik" x4: 4 * 8*32*32 (i*j*k); "bhid,bhjd->bhij", "bhij,bhjd->bhid": 4*8*8*8 each (h*i*j*d).
        g = op.einsum_attention()
        shown = self.show(g, "--input-shape", "x=1x8x32")
        self.assertMacs(shown, 4 * 8 * 32 * 32 + 2 * 4 * 8 * 8 * 8)
        self.assertAttention(shown, g, qk=4 * 8 * 8 * 8)

    def test_loop_with_a_static_trip_count(self):
        # 3 trips of 8*32*32, then the head 8*32*16.
        shown = self.show(op.static_loop())
        self.assertMacs(shown, 3 * 8 * 32 * 32 + 8 * 32 * 16)

    def test_topk_and_non_max_suppression_are_vector_work(self):
        # Conv 3x3 stride 2 3->8 on 16x16: 8*8*8*27; box conv 8*8*4*8; class conv 8*8*2*8. TopK, NMS: 0.
        shown = self.show(op.detection_postprocess())
        self.assertMacs(shown, 8 * 8 * 8 * 27 + 8 * 8 * 4 * 8 + 8 * 8 * 2 * 8)
        for name in ("/postprocess/TopK", "/postprocess/NonMaxSuppression"):
            self.assertEqual(self.layer(shown, name)["macs"], 0)

    def test_constant_by_constant_matmul_folds_with_a_note(self):
        # DETR's first decoder layer: q_proj of the (zero + query position) constant folds and is noted.
        #   k, v 2*16*32*32; QK^T, AV 2*4*8*16*8; out 8*32*32.
        g = op.detr_first_decoder_layer()
        data, stderr = self.import_yaml(g)
        self.assertIn(g.q_proj, stderr)
        self.assertNotIn(g.q_proj, {entry["name"] for entry in data["layers"]})
        shown = self.show(g)
        self.assertMacs(shown, 2 * 16 * 32 * 32 + 2 * 4 * 8 * 16 * 8 + 8 * 32 * 32)

    def test_qdq_conv_records_its_bits(self):
        data, _ = self.import_yaml(op.qdq_conv(), "--input-shape", "input=1x3x16x16")
        convs = [entry for entry in data["layers"] if entry["op"] == "conv"]
        self.assertEqual(len(convs), 2)
        for conv in convs:
            self.assertEqual((conv.get("weight_bits"), conv.get("activation_bits")), (8, 8), conv["name"])
        # The inner pairs vanish into the int8 convs; the float input's quantisation (3 operations per element)
        # and the output's dequantisation (2) remain vector work.
        vector = {entry["name"]: entry.get("operations_per_element") for entry in data["layers"]
                  if entry["op"] == "elementwise"}
        self.assertEqual(vector, {"input_QuantizeLinear": 3.0, "output_DequantizeLinear": 2.0})


if __name__ == "__main__":
    unittest.main()
