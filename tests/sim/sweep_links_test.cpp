// Linked keys (--link KEY=EXPR) and a swept batch: the grammar, the values at each point, the refusals.
#include "sim/sweep/sweep_links.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/input_error.hpp"
#include "sim/sweep/sweep_points.hpp"

namespace ergon {
namespace {

using Values = std::vector<std::string>;

std::string link_error(const std::string& text) {
  try {
    parse_sweep_link(text);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

std::string grid_error(const std::vector<std::string>& parameters, const std::vector<std::string>& links) {
  std::vector<SweepParameter> swept;
  for (const std::string& text : parameters) swept.push_back(parse_sweep_parameter(text));
  std::vector<SweepLink> linked;
  for (const std::string& text : links) linked.push_back(parse_sweep_link(text));
  try {
    SweepGrid({"w.yaml"}, swept, linked);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

TEST(SweepLinks, EvaluatesLinearExpressionsLeftToRight) {
  const SweepLink half = parse_sweep_link("glb.filter_size_kib=glb.size_kib/2");
  EXPECT_EQ(half.source, "glb.size_kib");
  EXPECT_FALSE(half.whole_numbers);  // a number key
  EXPECT_DOUBLE_EQ(half.evaluate(64), 32);
  EXPECT_DOUBLE_EQ(parse_sweep_link("glb.filter_size_kib = 3 * glb.size_kib / 4 + 8 - .5").evaluate(16), 19.5);
  EXPECT_DOUBLE_EQ(parse_sweep_link("glb.filter_size_kib=100-glb.size_kib").evaluate(30), 70);
  EXPECT_TRUE(parse_sweep_link("pe_array.cols=pe_array.rows*2").whole_numbers);  // an integer key
  EXPECT_TRUE(parse_sweep_link("batch=pe_array.rows").whole_numbers);
}

TEST(SweepLinks, RefusesAnythingElseNamingTheOptionAndThePosition) {
  EXPECT_EQ(link_error("glb.filter_size_kib=glb.size_kib/x2"),
            "--link glb.filter_size_kib=glb.size_kib/x2: at character 34 ('x2'): a key never divides: EXPR is products "
            "and quotients of one key and numbers");
  EXPECT_EQ(
      link_error("glb.filter_size_kib=(glb.size_kib)/2"),
      "--link glb.filter_size_kib=(glb.size_kib)/2: at character 21 ('(glb.size_ki'): expected a number or a key");
  EXPECT_EQ(link_error("glb.filter_size_kib=glb.size_kib+glb.banks"),
            "--link glb.filter_size_kib=glb.size_kib+glb.banks: at character 34 ('glb.banks'): a second key (glb.banks "
            "after glb.size_kib): EXPR reads exactly one key");
  EXPECT_EQ(link_error("glb.filter_size_kib=glb.size_kib/0"),
            "--link glb.filter_size_kib=glb.size_kib/0: at character 34 ('0'): division by zero");
  EXPECT_EQ(link_error("glb.filter_size_kib=8/2"),
            "--link glb.filter_size_kib=8/2: EXPR holds no key: it computes the linked value from one key");
  EXPECT_EQ(link_error("glb.filter_size_kib=glb.size_kib^2"),
            "--link glb.filter_size_kib=glb.size_kib^2: at character 33 ('^2'): expected + - * / or the end");
  EXPECT_EQ(link_error("glb.filter_size_kib=glb.size_kib/"),
            "--link glb.filter_size_kib=glb.size_kib/: at character 34: expected a number or a key, found the end");
  EXPECT_EQ(link_error("glb.filter_size_kib=2glb.size_kib"),
            "--link glb.filter_size_kib=2glb.size_kib: at character 22 ('glb.size_kib'): expected + - * / between a "
            "number and a key");
  EXPECT_EQ(link_error("glb.filter_size_kib=1.2.3*glb.size_kib"),
            "--link glb.filter_size_kib=1.2.3*glb.size_kib: at character 21 ('1.2.3*glb.si'): not a number");
  EXPECT_EQ(link_error("glb.banks=glb.banks*2"),
            "--link glb.banks=glb.banks*2: at character 11 ('glb.banks*2'): glb.banks cannot be computed from itself");
  EXPECT_EQ(link_error("glb.filter_size_kib="),
            "--link glb.filter_size_kib=: expected KEY=EXPR, e.g. glb.filter_size_kib=glb.size_kib/2 (a key, * / + - "
            "and numbers)");
  // The linked key must be a numeric config key.
  EXPECT_EQ(link_error("dram.preset=glb.size_kib"),
            "--link dram.preset=glb.size_kib: dram.preset: a choice key; a link computes a number");
  EXPECT_EQ(link_error("glb.filter_size_kb=glb.size_kib/2"),
            "--link glb.filter_size_kb=glb.size_kib/2: glb.filter_size_kb: not a config key (`ergon config keys` lists "
            "them); did you mean glb.filter_size_kib?");
}

TEST(SweepLinks, LinkedValuesAreColumnsAndConfigAssignmentsAtEveryPoint) {
  const SweepGrid grid({"w0", "w1"},
                       {parse_sweep_parameter("glb.size_kib=8,16,24"), parse_sweep_parameter("batch=1,4")},
                       {parse_sweep_link("glb.filter_size_kib=glb.size_kib/2"), parse_sweep_link("glb.banks=batch*2")});
  EXPECT_EQ(grid.size(), 12u);  // links add columns, not points
  EXPECT_EQ(grid.columns(), (Values{"glb.size_kib", "batch", "glb.filter_size_kib", "glb.banks"}));
  const SweepPoint point = grid.point(9);  // w1, glb.size_kib=16, batch=4
  EXPECT_EQ(point.values, (Values{"16", "4", "8", "8"}));
  EXPECT_EQ(grid.overrides(point), (Values{"glb.size_kib=16", "glb.filter_size_kib=8", "glb.banks=8"}));  // no batch
  EXPECT_EQ(grid.batch(point), 4);
  EXPECT_EQ(grid.config_assignments({"24", "1"}), (Values{"glb.size_kib=24", "glb.filter_size_kib=12", "glb.banks=2"}));
  EXPECT_EQ(links_manifest(grid).dump(),
            R"([{"key":"glb.filter_size_kib","expression":"glb.size_kib/2","values":["4","8","12"]},)"
            R"({"key":"glb.banks","expression":"batch*2","values":["2","8"]}])");
  const SweepGrid plain({"w0"}, {parse_sweep_parameter("glb.size_kib=8")});
  EXPECT_FALSE(plain.batch(plain.point(0)).has_value());  // each layer's own batch
}

TEST(SweepLinks, AnIntegerKeyNeedsAWholeResultAndTheErrorNamesThePoint) {
  EXPECT_EQ(
      grid_error({"glb.size_kib=8,16", "pe_array.rows=4,6"}, {"pe_array.cols=pe_array.rows/4"}),
      "--link pe_array.cols=pe_array.rows/4: pe_array.rows=6 gives pe_array.cols=1.5, not a whole number at "
      "point 1 (w.yaml glb.size_kib=8 pe_array.rows=6): pe_array.cols takes integers, and a linked value is never "
      "rounded");
  // Floating-point noise is not a fraction: 0.1*3*10 is 3.
  EXPECT_EQ(grid_error({"clock.voltage_v=0.1"}, {"pe_array.rows=clock.voltage_v*3*10"}), "");
  EXPECT_EQ(grid_error({"dram.preset=lpddr4,hbm2"}, {"glb.banks=dram.preset*2"}),
            "--link glb.banks=dram.preset*2: dram.preset's value 'lpddr4' is not a number");
  EXPECT_EQ(grid_error({"glb.size_kib=8"}, {"batch=glb.size_kib/16"}),
            "--link batch=glb.size_kib/16: glb.size_kib=8 gives batch=0.5, not a whole number at point 0 (w.yaml "
            "glb.size_kib=8): batch takes integers, and a linked value is never rounded");
  EXPECT_EQ(grid_error({"glb.size_kib=8"}, {"batch=glb.size_kib-8"}),
            "--link batch=glb.size_kib-8: batch: '0' is not a whole number of images in [1, 1048576]");
}

TEST(SweepLinks, ALinkedKeyIsSetOnce) {
  EXPECT_EQ(grid_error({"glb.size_kib=8,16"}, {"glb.size_kib=glb.banks*8"}),
            "--link glb.size_kib=glb.banks*8: glb.size_kib is already swept by --param glb.size_kib=8,16; a key is "
            "either swept or linked: drop one of them");
  EXPECT_EQ(grid_error({"glb.size_kib=8,16"}, {"glb.banks=glb.size_kib/8", "glb.banks=glb.size_kib/4"}),
            "--link glb.banks=glb.size_kib/4: glb.banks is already linked by --link glb.banks=glb.size_kib/8; a key is "
            "linked once");
  std::vector<SweepLink> links = {parse_sweep_link("glb.banks=glb.size_kib/8")};
  EXPECT_THROW(check_distinct_keys({parse_sweep_parameter("glb.size_kib=8")}, {"glb.banks=2"}, links), InputError);
  // A source that is neither swept nor resolved from the config has no value.
  EXPECT_EQ(grid_error({"glb.size_kib=8"}, {"glb.banks=pe_array.rows/2"}),
            "--link glb.banks=pe_array.rows/2: pe_array.rows is not swept and has no value to read");
}

TEST(SweepLinks, ASourceThatIsNotSweptIsReadFromTheConfig) {
  const std::string config = std::string(ERGON_SOURCE_DIR) + "/configs/eyeriss.yaml";
  const std::vector<SweepParameter> parameters = {parse_sweep_parameter("glb.size_kib=64,128")};
  std::vector<SweepLink> links = {parse_sweep_link("glb.banks=pe_array.rows/3")};
  resolve_link_sources(links, parameters, {"pe_array.rows=12"}, config, 0);
  EXPECT_EQ(links[0].source_value, 12);
  EXPECT_EQ(SweepGrid({"w"}, parameters, links).point(1).values, (Values{"128", "4"}));
  std::vector<SweepLink> batch = {parse_sweep_link("glb.banks=batch*2")};
  resolve_link_sources(batch, parameters, {}, config, 3);
  EXPECT_EQ(batch[0].source_value, 3);
  std::vector<SweepLink> unfixed = {parse_sweep_link("glb.banks=batch*2")};
  EXPECT_THROW(resolve_link_sources(unfixed, parameters, {}, config, 0), InputError);
  std::vector<SweepLink> typo = {parse_sweep_link("glb.banks=glb.size_kb/8")};
  try {
    resolve_link_sources(typo, parameters, {}, config, 0);
    FAIL() << "a source that is not a key was accepted";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("did you mean glb.size_kib?"), std::string::npos) << error.what();
  }
}

TEST(SweepLinks, ASweptBatchIsAWholeNumberOfImagesInRange) {
  EXPECT_EQ(grid_error({"batch=1,2.5"}, {}),
            "--param batch=1,2.5: batch: '2.5' is not a whole number of images in [1, "
            "1048576]");
  EXPECT_EQ(grid_error({"batch=0:4:2"}, {}),
            "--param batch=0:4:2: batch: '0' is not a whole number of images in [1, "
            "1048576]");
  EXPECT_EQ(grid_error({"batch=1,4,16"}, {}), "");
}

}  // namespace
}  // namespace ergon
