// Timeloop problem files (tests/data/timeloop/problems/, copied from Timeloop's public exercises) import as
// Ergon layers of the shape each problem describes: every layer's tensors are checked against the
// problem's bounds, and its MACs (batch included) against the hand count R*S*P*Q*C*M*N written here.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/input_error.hpp"
#include "network/importers/timeloop_problem.hpp"
#include "network/workload.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

std::string problem_file(const std::string& name) {
  return test::data_dir() + "/timeloop/problems/" + name;
}

std::string write_temp(const std::string& name, const std::string& content) {
  const auto path = test::unique_temp_path(name);
  std::ofstream(path) << content;
  return path.string();
}

std::string read_text(const std::string& path) {
  std::ifstream stream(path);
  std::stringstream text;
  text << stream.rdbuf();
  return text.str();
}

struct Imported {
  Workload workload;
  std::vector<std::string> warnings;
};

Imported import(const std::vector<std::string>& paths) {
  TimeloopImport problems = read_timeloop_problems(paths);
  const std::string yaml = write_temp(std::filesystem::path(paths[0]).stem().string() + "_timeloop.yaml",
                                      timeloop_workload_yaml(problems.layers, "imported"));
  return {load_workload(yaml), problems.warnings};
}

std::string stem_of(const std::string& path) {
  return std::filesystem::path(path).stem().string();
}

const Layer& layer_named(const Workload& workload, const std::string& name) {
  const Layer* layer = workload.find_layer(name);
  if (layer == nullptr) throw std::runtime_error("no layer " + name);
  return *layer;
}

std::uint64_t batched_macs(const Layer& layer) {
  return layer.macs * static_cast<std::uint64_t>(layer.batch);
}

// One of the files with a single text replaced (a variant the exercises do not ship).
std::string variant(const std::string& file, const std::string& name,
                    const std::vector<std::pair<std::string, std::string>>& replacements) {
  std::string text = read_text(problem_file(file));
  for (const auto& [from, to] : replacements) {
    const auto at = text.find(from);
    if (at == std::string::npos) throw std::runtime_error("'" + from + "' is not in " + file);
    text.replace(at, from.size(), to);
  }
  return write_temp(name, text);
}

TEST(TimeloopImport, VersionThreeConvolutionsWithOutputChannelsMOrK) {
  const Imported vgg = import({problem_file("VGG02_layer5.yaml")});  // C 128, M 256, R = S = 3, P = Q = 56, N 1
  const Layer& layer = layer_named(vgg.workload, "VGG02_layer5");
  EXPECT_EQ(layer.input_shapes[0], (TensorShape{128, 58, 58}));  // (56 - 1) x 1 + (3 - 1) x 1 + 1, unpadded
  EXPECT_EQ(layer.output_shape, (TensorShape{256, 56, 56}));
  EXPECT_EQ(layer.batch, 1);
  EXPECT_EQ(batched_macs(layer), 3ull * 3 * 56 * 56 * 128 * 256 * 1);
  EXPECT_TRUE(vgg.warnings.empty());

  const Imported batched = import({problem_file("cnn-layer.prob.yaml")});  // C 256, K 512, N 16
  const Layer& conv = layer_named(batched.workload, "cnn-layer.prob");
  EXPECT_EQ(conv.input_shapes[0], (TensorShape{256, 58, 58}));
  EXPECT_EQ(conv.output_shape, (TensorShape{512, 56, 56}));
  EXPECT_EQ(conv.batch, 16);
  EXPECT_EQ(batched_macs(conv), 3ull * 3 * 56 * 56 * 256 * 512 * 16);
}

TEST(TimeloopImport, StrideAndDilationSizeTheInput) {
  const Imported alexnet = import({problem_file("AlexNet_layer1.yaml")});  // v0.4: 11x11, stride 4, P = Q = 55
  const Layer& conv1 = layer_named(alexnet.workload, "AlexNet_layer1");
  EXPECT_EQ(conv1.input_shapes[0], (TensorShape{3, 227, 227}));  // (55 - 1) x 4 + 11: AlexNet's 227
  EXPECT_EQ(conv1.output_shape, (TensorShape{96, 55, 55}));
  EXPECT_EQ(conv1.conv().window.stride_h, 4);
  EXPECT_EQ(batched_macs(conv1), 11ull * 11 * 55 * 55 * 3 * 96 * 1);

  // Wdilation pairs with R and P (the width), Hdilation with S and Q (the height).
  const std::string dilated =
      variant("VGG02_layer5.yaml", "timeloop_dilated.yaml",
              {{"Hdilation: 1", "Hdilation: 3"}, {"Wdilation: 1", "Wdilation: 2"}, {"Wstride: 1", "Wstride: 2"}});
  const Imported dilated_imported = import({dilated});
  const Layer& layer = layer_named(dilated_imported.workload, stem_of(dilated));
  const Window& window = layer.conv().window;
  EXPECT_EQ(window.dilation_h, 3);
  EXPECT_EQ(window.dilation_w, 2);
  EXPECT_EQ(window.stride_w, 2);
  EXPECT_EQ(layer.input_shapes[0], (TensorShape{128, 55 + 2 * 3 + 1, 55 * 2 + 2 * 2 + 1}));
  EXPECT_EQ(layer.output_shape, (TensorShape{256, 56, 56}));
  EXPECT_EQ(batched_macs(layer), 3ull * 3 * 56 * 56 * 128 * 256);
}

// Timeloop's default problem states its 224x224 input and padding 1 (keys Timeloop ignores); they give its
// 112 outputs, so the layer equals the one written by hand in tests/data/timeloop/default_problem.yaml.
TEST(TimeloopImport, StatedInputAndPaddingAreKeptWhenTheyGiveTheOutputSize) {
  const Imported imported = import({problem_file("default_problem.yaml")});
  const Layer& layer = layer_named(imported.workload, "default_problem");
  const Workload by_hand = load_workload(test::data_dir() + "/timeloop/default_problem.yaml");
  const Layer& expected = layer_named(by_hand, "conv1");
  EXPECT_EQ(layer.input_shapes[0], (TensorShape{3, 224, 224}));
  EXPECT_EQ(layer.input_shapes[0], expected.input_shapes[0]);
  EXPECT_EQ(layer.output_shape, expected.output_shape);
  EXPECT_EQ(layer.conv().window.padding.top, 1);
  EXPECT_EQ(layer.conv().window.padding.right, 1);
  EXPECT_EQ(layer.macs, expected.macs);
  EXPECT_EQ(batched_macs(layer), 3ull * 3 * 112 * 112 * 3 * 32 * 1);
  EXPECT_TRUE(imported.warnings.empty());
}

// The 2024 exercise's problem has a groups dimension G and placeholder H = W = 1, which give 1 output, not 128:
// they are ignored with a warning each, and the input is what the outputs read.
TEST(TimeloopImport, GroupsBatchAndPlaceholderSizes) {
  const Imported imported = import({problem_file("problem.yaml")});  // C 128, M 128, G 1, N 32, P = Q = 128, 1x1
  const Layer& layer = layer_named(imported.workload, "problem");
  EXPECT_EQ(layer.input_shapes[0], (TensorShape{128, 128, 128}));
  EXPECT_EQ(layer.batch, 32);
  EXPECT_EQ(batched_macs(layer), 1ull * 1 * 128 * 128 * 128 * 128 * 32);
  ASSERT_EQ(imported.warnings.size(), 2u);
  EXPECT_NE(imported.warnings[0].find("problem.instance.W: W = 1 with Wpad = 0 gives 1 outputs along this axis, "
                                      "not P = 128; Timeloop ignores W and Wpad"),
            std::string::npos)
      << imported.warnings[0];

  // Depthwise: G = 16 groups of one channel and one filter.
  const std::string depthwise = variant("problem.yaml", "timeloop_depthwise.yaml",
                                        {{"C: 128", "C: 1"}, {"G: 1", "G: 16"}, {"M: 128", "M: 1"}, {"N: 32", "N: 1"}});
  const Imported depthwise_imported = import({depthwise});
  const Layer& grouped = layer_named(depthwise_imported.workload, stem_of(depthwise));
  EXPECT_EQ(grouped.conv().groups, 16);
  EXPECT_EQ(grouped.input_shapes[0].channels, 16);
  EXPECT_EQ(grouped.output_shape, (TensorShape{16, 128, 128}));
  EXPECT_EQ(batched_macs(grouped), 1ull * 1 * 128 * 128 * 1 * 1 * 1 * 16);
}

TEST(TimeloopImport, OneDimensionalConvolutionSlidesAlongTheWidth) {
  const Imported imported = import({problem_file("conv1d+oc+ic.prob.yaml")});  // C 32, K 32, R 3, P 16
  const Layer& layer = layer_named(imported.workload, "conv1d+oc+ic.prob");
  EXPECT_EQ(layer.input_shapes[0], (TensorShape{32, 1, 18}));
  EXPECT_EQ(layer.output_shape, (TensorShape{32, 1, 16}));
  EXPECT_EQ(layer.conv().window.kernel_w, 3);
  EXPECT_EQ(batched_macs(layer), 3ull * 16 * 32 * 32);
}

TEST(TimeloopImport, GemmsBecomeOneByOneConvolutionsOrFullyConnectedLayers) {
  // gemm_ABZ, Z[M][N] = A[M][K] B[N][K]: M 512 rows of K 1024 features, N 256 outputs; A is half zeros.
  const Imported resnet = import({problem_file("M1024-K512-N256.yaml")});
  const Layer& gemm = layer_named(resnet.workload, "M1024-K512-N256");
  EXPECT_EQ(gemm.op, OpKind::kConv);
  EXPECT_EQ(gemm.input_shapes[0], (TensorShape{1024, 512, 1}));
  EXPECT_EQ(gemm.output_shape, (TensorShape{256, 512, 1}));
  EXPECT_DOUBLE_EQ(gemm.sparsity.ifmap, 0.5);
  EXPECT_EQ(batched_macs(gemm), 512ull * 256 * 1024);

  const Imported sparse = import({problem_file("spmspm.prob.yaml")});  // M = N = K = 8; A 0.25 dense, B 0.5
  const Layer& product = layer_named(sparse.workload, "spmspm.prob");
  EXPECT_EQ(batched_macs(product), 8ull * 8 * 8);
  EXPECT_DOUBLE_EQ(product.sparsity.ifmap, 0.75);
  ASSERT_EQ(sparse.warnings.size(), 1u);
  EXPECT_NE(sparse.warnings[0].find("problem.instance.densities.B: the density of B (the weights) is not modelled"),
            std::string::npos)
      << sparse.warnings[0];

  const Imported dot = import({problem_file("dot-product.prob.yaml")});  // K 16; M = 1 indexes only Z
  const Layer& fc = layer_named(dot.workload, "dot-product.prob");
  EXPECT_EQ(fc.op, OpKind::kFullyConnected);
  EXPECT_EQ(fc.input_shapes[0], (TensorShape{16, 1, 1}));
  EXPECT_EQ(fc.output_shape, (TensorShape{1, 1, 1}));
  EXPECT_EQ(batched_macs(fc), 16u);
}

TEST(TimeloopImport, BuiltInShapesByName) {
  const std::string conv =
      write_temp("timeloop_named_shape.yaml",
                 "problem:\n  shape: cnn-layer\n  instance: {R: 3, S: 3, P: 8, Q: 6, C: 4, K: 16, N: 2, Hstride: 2}\n");
  const Imported conv_imported = import({conv});
  const Layer& layer = layer_named(conv_imported.workload, stem_of(conv));
  EXPECT_EQ(layer.input_shapes[0], (TensorShape{4, (6 - 1) * 2 + 3, 10}));
  EXPECT_EQ(batched_macs(layer), 3ull * 3 * 8 * 6 * 4 * 16 * 2);
  const std::string gemm =
      write_temp("timeloop_named_gemm.yaml", "problem:\n  shape: gemm_ABZ\n  instance: {M: 1, N: 10, K: 64}\n");
  const Imported gemm_imported = import({gemm});
  const Layer& fc = layer_named(gemm_imported.workload, stem_of(gemm));
  EXPECT_EQ(fc.op, OpKind::kFullyConnected);
  EXPECT_EQ(batched_macs(fc), 10u * 64);
}

TEST(TimeloopImport, SeveralFilesAreLayersNamedByTheirStems) {
  const std::string vgg = problem_file("VGG02_layer5.yaml");
  const Imported imported = import({vgg, problem_file("AlexNet_layer1.yaml"), vgg});
  EXPECT_NE(imported.workload.find_layer("VGG02_layer5"), nullptr);
  EXPECT_NE(imported.workload.find_layer("AlexNet_layer1"), nullptr);
  EXPECT_NE(imported.workload.find_layer("VGG02_layer5_2"), nullptr);
  ASSERT_EQ(imported.warnings.size(), 1u);
  EXPECT_NE(imported.warnings[0].find("the layer name 'VGG02_layer5' is already used for"), std::string::npos);
  EXPECT_EQ(imported.workload.total_macs(), 2 * (3ull * 3 * 56 * 56 * 128 * 256) + 11ull * 11 * 55 * 55 * 3 * 96);
}

std::string import_error(const std::string& path) {
  try {
    read_timeloop_problems({path});
  } catch (const InputError& error) {
    return error.what();
  }
  return "no error";
}

std::string problem_with(const std::string& name, const std::string& shape, const std::string& instance) {
  return write_temp(name, "problem:\n  shape:\n" + shape + "  instance: " + instance + "\n");
}

const std::string kMatrixShape =
    "    name: product\n"
    "    dimensions: [M, N, K]\n"
    "    data_spaces:\n"
    "      - {name: A, projection: [[[M]], [[K]]]}\n"
    "      - {name: B, projection: [[[N]], [[K]]]}\n"
    "      - {name: Z, projection: [[[M]], [[N]]], read_write: true}\n";

TEST(TimeloopImport, RefusedInputsNameTheFileLineAndKey) {
  const std::string templated = problem_file("mobilenet_v3_01.yaml");
  EXPECT_EQ(import_error(templated).rfind(templated + ":3:1: a Jinja2 template expression", 0), 0u)
      << import_error(templated);

  const std::string typo =
      variant("AlexNet_layer1.yaml", "timeloop_typo.yaml", {{"Hstride: 4", "HStride: 4"}});  // as in resnet18/00
  EXPECT_NE(import_error(typo).find(typo + ":8:5: problem.instance.HStride: unknown key 'HStride'; did you mean "
                                           "'Hstride'?"),
            std::string::npos)
      << import_error(typo);

  const std::string missing = variant("VGG02_layer5.yaml", "timeloop_missing.yaml", {{"    Q: 56\n", ""}});
  EXPECT_NE(import_error(missing).find(":5:5: problem.instance: missing required key 'Q'"), std::string::npos)
      << import_error(missing);

  const std::string unknown_shape =
      write_temp("timeloop_unknown_shape.yaml", "problem:\n  shape: depthwise\n  instance: {C: 1}\n");
  EXPECT_NE(import_error(unknown_shape).find(":2:10: problem.shape: unknown built-in shape 'depthwise'"),
            std::string::npos)
      << import_error(unknown_shape);

  const std::string version = variant("AlexNet_layer1.yaml", "timeloop_version.yaml", {{"0.4", "0.5"}});
  EXPECT_NE(import_error(version).find("problem.version: Ergon reads Timeloop problems of versions 0.3 and 0.4"),
            std::string::npos);

  const std::string workload = test::source_dir() + "/workloads/alexnet.yaml";
  EXPECT_NE(import_error(workload).find(": missing required key 'problem'"), std::string::npos);
}

TEST(TimeloopImport, ShapesThatAreNotAConvolutionOrAGemmAreRefused) {
  const auto expect_refused = [](const std::string& shape, const std::string& instance, const std::string& fragment) {
    const std::string path = problem_with("timeloop_refused.yaml", shape, instance);
    EXPECT_NE(import_error(path).find(fragment), std::string::npos) << import_error(path);
  };
  expect_refused(kMatrixShape, "{M: 4, N: 4, K: 4, T: 2}",
                 "problem.instance.T: unknown key 'T'");  // a bound for no dimension
  std::string broadcast = kMatrixShape;
  broadcast.replace(broadcast.find("[M, N, K]"), 9, "[M, N, K, T]");
  broadcast.replace(broadcast.find("[[[M]], [[N]]]"), 14, "[[[M]], [[N]], [[T]]]");
  expect_refused(broadcast, "{M: 4, N: 4, K: 4, T: 2}",
                 ":4:27: problem.shape.dimensions[3]: dimension 'T' (T = 2 in the instance) indexes Z (outputs); every "
                 "dimension of a conv or GEMM indexes two or three of its tensors");
  std::string unknown_dimension = kMatrixShape;
  unknown_dimension.replace(unknown_dimension.find("[[[N]], [[K]]]"), 14, "[[[N]], [[L]]]");
  expect_refused(unknown_dimension, "{M: 4, N: 4, K: 4}",
                 "problem.shape.data_spaces[1].projection[1][0][0]: unknown dimension 'L'; did you mean 'M'?");
  std::string no_output = kMatrixShape;
  no_output.replace(no_output.find(", read_write: true"), 18, "");
  expect_refused(no_output, "{M: 4, N: 4, K: 4}",
                 "problem.shape: a conv or GEMM writes one tensor: exactly one data space must be read_write (here: "
                 "none)");
  std::string three_reads = kMatrixShape + "      - {name: C, projection: [[[M]], [[N]]]}\n";
  expect_refused(three_reads, "{M: 4, N: 4, K: 4}", "reads two tensors, inputs and weights; this shape reads 3");
  const std::string both_slide =
      "    dimensions: [R, P]\n"
      "    data_spaces:\n"
      "      - {name: I, projection: [[[R], [P]]]}\n"
      "      - {name: W, projection: [[[R], [P]]]}\n"
      "      - {name: O, projection: [[[P]]], read_write: true}\n";
  expect_refused(both_slide, "{R: 3, P: 4}", "both read tensors have a rank that sums terms");
  const std::string window_of_channels =
      "    dimensions: [C, P]\n"
      "    data_spaces:\n"
      "      - {name: I, projection: [[[C], [P]]]}\n"
      "      - {name: W, projection: [[[C]]]}\n"
      "      - {name: O, projection: [[[C]], [[P]]], read_write: true}\n";
  expect_refused(window_of_channels, "{C: 3, P: 4}",
                 "projection[0]: a sliding window sums a filter tap (a dimension of the inputs and weights only) and "
                 "an output position (of the inputs and outputs only); here 'C' indexes I (inputs), W (weights) and "
                 "O (outputs); 'P' indexes I (inputs) and O (outputs)");
  const std::string gather =
      "    dimensions: [M, K]\n"
      "    coefficients: [{name: s, default: 2}]\n"
      "    data_spaces:\n"
      "      - {name: A, projection: [[[K, s]]]}\n"
      "      - {name: B, projection: [[[K]], [[M]]]}\n"
      "      - {name: Z, projection: [[[M]]], read_write: true}\n";
  expect_refused(gather, "{M: 2, K: 8}", "K x s (s = 2) reads every 2th element of A: a strided gather");
  expect_refused(kMatrixShape, "{M: 4, N: 4, K: 4, densities: {A: 0}}",
                 "problem.instance.densities.A: must be > 0 and <= 1 (got 0)");
}

// `ergon import timeloop` end to end: a file written atomically with the layers' total, warnings on stderr;
// a refused input writes nothing and exits 1; the output never replaces an input.
struct CommandRun {
  int status;
  std::string out, err;
};

CommandRun run_ergon(const std::string& arguments) {
  const auto out = test::unique_temp_path("timeloop_cli.out"), err = test::unique_temp_path("timeloop_cli.err");
  const int raw =
      std::system((test::ergon_binary() + " " + arguments + " >" + out.string() + " 2>" + err.string()).c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, read_text(out.string()), read_text(err.string())};
}

TEST(TimeloopImport, CommandLineWritesTheWorkloadOrNothing) {
  const auto folder = test::unique_temp_path("timeloop_cli");
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  const std::string out = (folder / "alexnet_vgg.yaml").string();
  const CommandRun ok = run_ergon("import timeloop " + problem_file("AlexNet_layer1.yaml") + " " +
                                  problem_file("cnn-layer.prob.yaml") + " --name pair -o " + out);
  EXPECT_EQ(ok.status, 0) << ok.err;
  const std::uint64_t expected = 11ull * 11 * 55 * 55 * 3 * 96 + 3ull * 3 * 56 * 56 * 256 * 512 * 16;
  EXPECT_NE(ok.out.find("wrote " + out + ": 2 layers, " + std::to_string(expected) + " MACs"), std::string::npos)
      << ok.out;
  EXPECT_EQ(load_workload(out).name(), "pair");
  EXPECT_FALSE(std::filesystem::exists(out + ".check.yaml"));

  const std::string refused_out = (folder / "refused.yaml").string();
  const CommandRun refused =
      run_ergon("import timeloop " + problem_file("mobilenet_v3_01.yaml") + " -o " + refused_out);
  EXPECT_EQ(refused.status, 1);
  EXPECT_EQ(refused.err.rfind("error: " + problem_file("mobilenet_v3_01.yaml") + ":3:1: a Jinja2 template", 0), 0u)
      << refused.err;
  EXPECT_FALSE(std::filesystem::exists(refused_out));

  const std::string input = (folder / "input.yaml").string();
  std::filesystem::copy_file(problem_file("VGG02_layer5.yaml"), input);
  const CommandRun over = run_ergon("import timeloop " + input + " -o " + input);
  EXPECT_EQ(over.status, 1) << over.err;
  EXPECT_EQ(read_text(input), read_text(problem_file("VGG02_layer5.yaml")));
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace ergon
