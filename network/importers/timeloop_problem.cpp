#include "network/importers/timeloop_problem.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

#include "common/input_error.hpp"
#include "common/input_text.hpp"
#include "common/text.hpp"
#include "common/yaml_view.hpp"

namespace ergon {
namespace {

// Ergon's workload parser bounds every size, stride and dilation by 2^31 (network/layer_parser.cpp).
constexpr std::int64_t kMaxSize = std::int64_t{1} << 31;
constexpr IntRule kBound{1, kMaxSize};
constexpr IntRule kPadding{0, kMaxSize};
constexpr NumberRule kDensity{0.0, 1.0, true};

// ---- The shape: dimensions, coefficients and the data spaces' projections ----

struct Term {
  std::string dimension;
  std::string coefficient;  // empty: 1
};

struct Rank {  // one coordinate of a tensor: a sum of terms (Timeloop's sum-of-products form)
  std::vector<Term> terms;
  YamlView where;
};

struct DataSpace {
  std::string name;
  std::vector<Rank> ranks;
  bool read_write = false;
  YamlView where;
};

struct Shape {
  std::string name;
  std::vector<std::string> dimensions;
  std::vector<YamlView> dimension_views;
  std::map<std::string, std::int64_t> coefficient_defaults;
  std::vector<DataSpace> data_spaces;
  YamlView where;
};

// Timeloop spelt keys with hyphens until 2024 (data-spaces, read-write) and with underscores since.
std::optional<YamlView> find_either_spelling(YamlMap& map, const std::string& underscored) {
  std::string hyphenated = underscored;
  std::replace(hyphenated.begin(), hyphenated.end(), '_', '-');
  const bool has_underscored = map.has(underscored);
  if (!map.has(hyphenated)) return map.find(underscored);
  if (has_underscored) map.at(hyphenated).fail(fmt::format("give '{}' or '{}', not both", underscored, hyphenated));
  return map.find(hyphenated);
}

// "a, b and c"
std::string listed(const std::vector<std::string>& words) {
  std::string text;
  for (std::size_t i = 0; i < words.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == words.size() ? " and " : ", ") + words[i];
  }
  return text;
}

void check_known(const YamlView& view, const std::string& name, const std::vector<std::string>& known,
                 const std::string& what) {
  if (std::find(known.begin(), known.end(), name) != known.end()) return;
  const std::string suggestion = closest_match(name, known);
  if (!suggestion.empty()) view.fail(fmt::format("unknown {} '{}'; did you mean '{}'?", what, name, suggestion));
  if (known.empty()) view.fail(fmt::format("unknown {} '{}'; the shape declares none", what, name));
  view.fail(fmt::format("unknown {} '{}'; the shape declares {}", what, name, listed(known)));
}

std::vector<std::string> coefficient_names(const Shape& shape) {
  std::vector<std::string> names;
  for (const auto& entry : shape.coefficient_defaults) names.push_back(entry.first);
  return names;
}

Term parse_term(const YamlView& view, const Shape& shape) {
  const std::vector<YamlView> items = view.items();
  if (items.empty() || items.size() > 2) view.fail("expected a term [dimension] or [dimension, coefficient]");
  Term term{items[0].as_string(), ""};
  check_known(items[0], term.dimension, shape.dimensions, "dimension");
  if (items.size() == 2) {
    term.coefficient = items[1].as_string();
    check_known(items[1], term.coefficient, coefficient_names(shape), "coefficient");
  }
  return term;
}

// A projection lists the tensor's ranks: each a list of terms, or one dimension's name (the array form, [M, K]).
std::vector<Rank> parse_projection(const YamlView& view, const Shape& shape) {
  std::vector<Rank> ranks;
  for (const YamlView& rank_view : view.items()) {
    Rank rank{{}, rank_view};
    if (rank_view.node().IsScalar()) {
      rank.terms.push_back({rank_view.as_string(), ""});
      check_known(rank_view, rank.terms[0].dimension, shape.dimensions, "dimension");
    } else {
      for (const YamlView& term_view : rank_view.items()) rank.terms.push_back(parse_term(term_view, shape));
      if (rank.terms.empty()) rank_view.fail("a rank needs at least one term");
    }
    ranks.push_back(std::move(rank));
  }
  return ranks;
}

DataSpace parse_data_space(const YamlView& view, const Shape& shape) {
  YamlMap map(view);
  DataSpace space{map.get_string("name"), parse_projection(map.at("projection"), shape), false, view};
  if (const auto read_write = find_either_spelling(map, "read_write")) space.read_write = read_write->as_bool();
  if (const auto ranks = map.find("ranks")) ranks->items();  // rank names, for Timeloop's sparse formats only
  map.reject_unknown_keys();
  return space;
}

void parse_dimensions(const YamlView& view, Shape& shape) {
  for (const YamlView& item : view.items()) {
    const std::string name = item.as_string();
    if (std::count(shape.dimensions.begin(), shape.dimensions.end(), name) > 0) {
      item.fail("dimension '" + name + "' is listed twice");
    }
    shape.dimensions.push_back(name);
    shape.dimension_views.push_back(item);
  }
}

// Coefficients scale a term: here always a stride or a dilation, so at least 1.
void parse_coefficients(const YamlView& view, Shape& shape) {
  for (const YamlView& item : view.items()) {
    YamlMap coefficient(item);
    const std::string name = coefficient.get_string("name");
    if (std::count(shape.dimensions.begin(), shape.dimensions.end(), name) > 0 ||
        shape.coefficient_defaults.count(name) > 0) {
      coefficient.at("name").fail("'" + name + "' is already a dimension or coefficient of the shape");
    }
    shape.coefficient_defaults[name] = coefficient.get_int("default", kBound);
    coefficient.reject_unknown_keys();
  }
}

Shape parse_shape(const YamlView& view) {
  YamlMap map(view);
  Shape shape{map.get_string("name", ""), {}, {}, {}, {}, view};
  parse_dimensions(map.at("dimensions"), shape);
  if (const auto coefficients = map.find("coefficients")) parse_coefficients(*coefficients, shape);
  if (map.has("flatten")) map.at("flatten").fail("flattened dimensions are not supported; list them unflattened");
  const std::optional<YamlView> found = find_either_spelling(map, "data_spaces");
  const YamlView spaces = found ? *found : map.at("data_spaces");  // at(): the missing-key error
  for (const YamlView& item : spaces.items()) {
    shape.data_spaces.push_back(parse_data_space(item, shape));
    for (std::size_t i = 0; i + 1 < shape.data_spaces.size(); ++i) {
      if (shape.data_spaces[i].name == shape.data_spaces.back().name) {
        item.fail("data space '" + shape.data_spaces.back().name + "' is listed twice");
      }
    }
  }
  map.reject_unknown_keys();
  return shape;
}

// Timeloop's built-in shapes (its problem-shapes/ folder), which a problem may name instead of describing:
// the convolution (output channels K) and the GEMM Z[M][N] = A[M][K] B[N][K].
const char* const kCnnLayerShape = R"(
name: CNN-Layer
dimensions: [R, S, P, Q, C, K, N]
coefficients: [{name: Wstride, default: 1}, {name: Hstride, default: 1},
               {name: Wdilation, default: 1}, {name: Hdilation, default: 1}]
data_spaces:
  - {name: Weights, projection: [[[C]], [[K]], [[R]], [[S]]]}
  - {name: Inputs, projection: [[[N]], [[C]], [[R, Wdilation], [P, Wstride]], [[S, Hdilation], [Q, Hstride]]]}
  - {name: Outputs, projection: [[[N]], [[K]], [[Q]], [[P]]], read_write: true}
)";
const char* const kGemmShape = R"(
name: gemm_ABZ
dimensions: [M, N, K]
data_spaces:
  - {name: A, projection: [[[M]], [[K]]]}
  - {name: B, projection: [[[N]], [[K]]]}
  - {name: Z, projection: [[[M]], [[N]]], read_write: true}
)";

Shape builtin_shape(const std::string& given_name, const YamlView& named_at) {
  std::string name = given_name;
  for (const char* extension : {".yaml", ".yml"}) {  // Timeloop takes the file's name too
    const std::string suffix = extension;
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      name.resize(name.size() - suffix.size());
    }
  }
  const char* text = nullptr;
  if (name == "cnn-layer" || name == "cnn_layer") text = kCnnLayerShape;
  if (name == "gemm-ABZ" || name == "gemm_ABZ") text = kGemmShape;
  if (text == nullptr) {
    named_at.fail("unknown built-in shape '" + given_name +
                  "'; Timeloop's are cnn-layer and gemm_ABZ (its libconfig gemm.cfg, four tensors, is not read): "
                  "name one of them or describe the shape (name, dimensions, coefficients, data_spaces)");
  }
  auto origin = std::make_shared<YamlOrigin>(YamlOrigin{"Timeloop's built-in shape '" + name + "'", {}});
  return parse_shape(YamlView(YAML::Load(text), origin, named_at.path()));
}

// ---- The instance: every dimension's bound, the coefficients, densities, and the sizes Timeloop ignores ----

struct Instance {
  std::map<std::string, std::int64_t> bounds;        // every dimension
  std::map<std::string, std::int64_t> coefficients;  // every coefficient, given or by default
  std::map<std::string, double> densities;           // by data space, where given
  std::map<std::string, std::int64_t> stated_sizes;  // H, W, Hpad, Wpad where given (Timeloop ignores them)
  std::map<std::string, std::string> locations;      // "file:line:col: key path" of densities and stated sizes
  YamlView where;
};

std::string location_of(const YamlView& view) {
  return view.location().to_string() + ": " + view.path();
}

double read_density(const YamlView& view) {
  if (view.node().IsScalar()) return view.as_number(kDensity);
  YamlMap spec(view);
  const double density = spec.get_number("density", kDensity);
  // How the nonzeros spread (and the parameters of Timeloop's distributions): Ergon models their average fraction.
  for (const char* key : {"distribution", "band_width", "workload_tensor_size"}) spec.has(key);
  spec.reject_unknown_keys();
  return density;
}

void read_densities(YamlMap& map, const Shape& shape, Instance& instance) {
  if (const auto common = map.find("commonDensity")) {
    if (map.has("densities")) map.at("densities").fail("give commonDensity or densities, not both");
    const double density = read_density(*common);
    for (const DataSpace& space : shape.data_spaces) {
      instance.densities[space.name] = density;
      instance.locations[space.name] = location_of(*common);
    }
    return;
  }
  const auto per_space = map.find("densities");
  if (!per_space) return;
  YamlMap spaces(*per_space);
  for (const DataSpace& space : shape.data_spaces) {
    if (const auto given = spaces.find(space.name)) {
      instance.densities[space.name] = read_density(*given);
      instance.locations[space.name] = location_of(*given);
    }
  }
  spaces.reject_unknown_keys();
}

// Timeloop's example problems state the unpadded input (H, W) and its padding (Hpad, Wpad) beside the bounds.
void read_stated_sizes(YamlMap& map, const Shape& shape, Instance& instance) {
  for (const char* key : {"H", "W", "Hpad", "Wpad"}) {
    const bool declared = std::count(shape.dimensions.begin(), shape.dimensions.end(), key) > 0 ||
                          shape.coefficient_defaults.count(key) > 0;
    if (declared) continue;
    const std::optional<YamlView> value = map.find(key);
    if (!value) continue;
    const bool padding = std::string(key).size() > 1;  // Hpad, Wpad
    instance.stated_sizes[key] = value->as_int(padding ? kPadding : kBound);
    instance.locations[key] = location_of(*value);
  }
}

Instance read_instance(YamlMap& problem, const Shape& shape) {
  std::optional<YamlMap> own;  // Timeloop also reads the bounds straight under `problem`
  if (problem.has("instance")) own.emplace(problem.at("instance"));
  YamlMap& map = own ? *own : problem;
  Instance instance{{}, {}, {}, {}, {}, map.view()};
  for (const std::string& dimension : shape.dimensions) instance.bounds[dimension] = map.get_int(dimension, kBound);
  for (const auto& [name, fallback] : shape.coefficient_defaults) {
    instance.coefficients[name] = map.get_int(name, fallback, kBound);
  }
  read_densities(map, shape, instance);
  read_stated_sizes(map, shape, instance);
  if (own) map.reject_unknown_keys();
  return instance;
}

// ---- The problem file ----

// timeloopfe's templates ({{include_text(...)}}, {% ... %}) are rendered before Timeloop reads a file.
void refuse_template_syntax(const std::string& path) {
  std::istringstream lines(read_input_text(path, "a Timeloop problem YAML file (problem: {shape, instance})"));
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    const std::string code = line.substr(0, line.find('#'));
    for (const char* marker : {"{{", "{%"}) {
      const std::size_t at = code.find(marker);
      if (at == std::string::npos) continue;
      throw InputError({path, number, static_cast<int>(at) + 1, {}}, "",
                       "a Jinja2 template expression, which Timeloop's Python front end (timeloopfe) renders before "
                       "Timeloop reads the file; Ergon reads plain YAML: import the rendered problem (timeloopfe "
                       "writes it into parsed-processed-input.yaml)");
    }
  }
}

void check_version(YamlMap& problem) {
  const auto version = problem.find("version");
  if (!version) return;
  const std::string text = version->as_string();
  if (text != "0.3" && text != "0.4") {
    version->fail("Ergon reads Timeloop problems of versions 0.3 and 0.4 (got '" + text + "')");
  }
}

Shape read_shape(YamlMap& problem, std::vector<std::string>& warnings) {
  const std::optional<YamlView> given = problem.find("shape");
  if (!given) {
    warnings.push_back(location_of(problem.view()) +
                       ": no shape given; Timeloop then takes its built-in cnn-layer shape, and so does this import");
    return builtin_shape("cnn-layer", problem.view());
  }
  if (given->node().IsScalar()) return builtin_shape(given->as_string(), *given);
  return parse_shape(*given);
}

// ---- Recognising a convolution or a GEMM ----

enum OperandBit : unsigned { kInputs = 1, kWeights = 2, kOutputs = 4 };

struct Operands {
  const DataSpace* inputs;
  const DataSpace* weights;
  const DataSpace* outputs;
};

bool slides(const DataSpace& space) {
  return std::any_of(space.ranks.begin(), space.ranks.end(), [](const Rank& rank) { return rank.terms.size() > 1; });
}

bool named_like_weights(const DataSpace& space) {
  const std::string name = ascii_lower(space.name);
  return name.find("weight") != std::string::npos || name.find("filter") != std::string::npos;
}

std::string names_of(const std::vector<const DataSpace*>& spaces) {
  std::vector<std::string> names;
  for (const DataSpace* space : spaces) names.push_back(space->name);
  return names.empty() ? "none" : listed(names);
}

// The inputs are the read tensor with a sliding window; without one (a GEMM), the weights are the one named
// so, else the second (Timeloop's B of Z = A B).
Operands assign_operands(const Shape& shape) {
  std::vector<const DataSpace*> read, written;
  for (const DataSpace& space : shape.data_spaces) (space.read_write ? written : read).push_back(&space);
  if (written.size() != 1) {
    shape.where.fail(fmt::format(
        "a conv or GEMM writes one tensor: exactly one data space must be read_write (here: {})", names_of(written)));
  }
  if (read.size() != 2) {
    shape.where.fail(fmt::format("a conv or GEMM reads two tensors, inputs and weights; this shape reads {} ({})",
                                 read.size(), names_of(read)));
  }
  if (slides(*read[0]) && slides(*read[1])) {
    read[1]->where.fail("both read tensors have a rank that sums terms; a convolution slides over its inputs only");
  }
  const bool first_is_weights =
      slides(*read[1]) || (!slides(*read[0]) && named_like_weights(*read[0]) && !named_like_weights(*read[1]));
  return first_is_weights ? Operands{read[1], read[0], written[0]} : Operands{read[0], read[1], written[0]};
}

// Each dimension indexes a tensor once; only the inputs' ranks may sum terms (a window: a tap and a position).
void check_ranks(const DataSpace& space, bool may_slide, const Instance& instance) {
  std::set<std::string> seen;
  for (const Rank& rank : space.ranks) {
    if (rank.terms.size() > 1 && !may_slide) {
      rank.where.fail(fmt::format("this rank of {} sums {} terms; only a convolution's inputs slide", space.name,
                                  rank.terms.size()));
    }
    if (rank.terms.size() > 2) {
      rank.where.fail(
          fmt::format("a sliding window sums two terms, a filter tap and an output position; this rank "
                      "sums {}",
                      rank.terms.size()));
    }
    for (const Term& term : rank.terms) {
      if (!seen.insert(term.dimension).second) {
        rank.where.fail(fmt::format("dimension '{}' indexes {} twice; a conv or GEMM indexes a tensor once by each",
                                    term.dimension, space.name));
      }
      if (rank.terms.size() == 1 && !term.coefficient.empty() && instance.coefficients.at(term.coefficient) != 1) {
        rank.where.fail(
            fmt::format("{} x {} ({} = {}) reads every {}th element of {}: a strided gather, not a conv or "
                        "GEMM",
                        term.dimension, term.coefficient, term.coefficient, instance.coefficients.at(term.coefficient),
                        instance.coefficients.at(term.coefficient), space.name));
      }
    }
  }
}

// Which of the three tensors each dimension indexes (OperandBit flags).
std::map<std::string, unsigned> operand_masks(const Operands& operands) {
  std::map<std::string, unsigned> masks;
  const std::pair<const DataSpace*, unsigned> spaces[] = {
      {operands.inputs, kInputs}, {operands.weights, kWeights}, {operands.outputs, kOutputs}};
  for (const auto& [space, bit] : spaces) {
    for (const Rank& rank : space->ranks) {
      for (const Term& term : rank.terms) masks[term.dimension] |= bit;
    }
  }
  return masks;
}

std::string describe_mask(unsigned mask, const Operands& operands) {
  std::vector<std::string> names;
  if (mask & kInputs) names.push_back(operands.inputs->name + " (inputs)");
  if (mask & kWeights) names.push_back(operands.weights->name + " (weights)");
  if (mask & kOutputs) names.push_back(operands.outputs->name + " (outputs)");
  return names.empty() ? "none of the tensors" : listed(names);
}

struct Axis {  // one sliding window of the inputs
  std::string filter_dimension, output_dimension;
  std::int64_t kernel = 1, output = 1, stride = 1, dilation = 1;
  bool named_height = false;  // its coefficients are named H... (Hstride, Hdilation)
};

// A window sums a filter tap (a dimension of the inputs and weights only), scaled by the dilation, and an
// output position (of the inputs and outputs only), scaled by the stride.
Axis read_axis(const Rank& rank, const std::map<std::string, unsigned>& masks, const Operands& operands,
               const Instance& instance) {
  Axis axis;
  std::string roles;
  for (const Term& term : rank.terms) {
    const unsigned mask = masks.at(term.dimension);
    const std::int64_t coefficient = term.coefficient.empty() ? 1 : instance.coefficients.at(term.coefficient);
    axis.named_height = axis.named_height || (!term.coefficient.empty() &&
                                              std::tolower(static_cast<unsigned char>(term.coefficient[0])) == 'h');
    if (mask == (kInputs | kWeights) && axis.filter_dimension.empty()) {
      axis.filter_dimension = term.dimension;
      axis.kernel = instance.bounds.at(term.dimension);
      axis.dilation = coefficient;
    } else if (mask == (kInputs | kOutputs) && axis.output_dimension.empty()) {
      axis.output_dimension = term.dimension;
      axis.output = instance.bounds.at(term.dimension);
      axis.stride = coefficient;
    }
    roles += fmt::format("{}'{}' indexes {}", roles.empty() ? "" : "; ", term.dimension, describe_mask(mask, operands));
  }
  if (axis.filter_dimension.empty() || axis.output_dimension.empty()) {
    rank.where.fail(
        "a sliding window sums a filter tap (a dimension of the inputs and weights only) and an output "
        "position (of the inputs and outputs only); here " +
        roles);
  }
  return axis;
}

struct Windows {
  std::optional<Axis> width, height;
  std::set<std::string> dimensions;  // the dimensions the windows use
};

// Timeloop's CNN-Layer slides R and P with Wdilation and Wstride along the width, S and Q with H... along the
// height; without such names the first window is the width.
Windows read_windows(const Operands& operands, const std::map<std::string, unsigned>& masks, const Instance& instance) {
  std::vector<Axis> axes;
  for (const Rank& rank : operands.inputs->ranks) {
    if (rank.terms.size() < 2) continue;
    if (axes.size() == 2) rank.where.fail("a third sliding window; Ergon's convolutions slide along two axes at most");
    axes.push_back(read_axis(rank, masks, operands, instance));
  }
  Windows windows;
  for (const Axis& axis : axes) windows.dimensions.insert({axis.filter_dimension, axis.output_dimension});
  if (axes.size() == 1) (axes[0].named_height ? windows.height : windows.width) = axes[0];
  if (axes.size() == 2) {
    const bool swapped = axes[0].named_height && !axes[1].named_height;
    windows.width = axes[swapped ? 1 : 0];
    windows.height = axes[swapped ? 0 : 1];
  }
  return windows;
}

struct Extents {  // the products of the dimensions outside the windows, by role
  std::int64_t groups = 1, channels = 1, filters = 1, batch = 1;
};

std::int64_t checked_product(std::int64_t a, std::int64_t b, const YamlView& where, const std::string& what,
                             std::int64_t limit = kMaxSize) {
  std::int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product) || product > limit) {
    where.fail(fmt::format("{} would be larger than {}, the most a workload holds", what, limit));
  }
  return product;
}

struct Role {
  std::int64_t Extents::*extent;
  const char* name;
};

// A dimension outside the windows by the tensors it indexes; none for a dimension of no conv or GEMM.
std::optional<Role> role_of(unsigned mask) {
  switch (mask) {
    case kInputs | kWeights | kOutputs: return Role{&Extents::groups, "the groups"};
    case kInputs | kWeights: return Role{&Extents::channels, "the input channels per group"};
    case kWeights | kOutputs: return Role{&Extents::filters, "the filters per group"};
    case kInputs | kOutputs: return Role{&Extents::batch, "the batch (or a GEMM's rows)"};
    default: return std::nullopt;
  }
}

Extents classify_dimensions(const Shape& shape, const Instance& instance, const Operands& operands,
                            const std::map<std::string, unsigned>& masks, const Windows& windows) {
  Extents extents;
  for (std::size_t i = 0; i < shape.dimensions.size(); ++i) {
    const std::string& dimension = shape.dimensions[i];
    if (windows.dimensions.count(dimension) > 0) continue;
    const unsigned mask = masks.count(dimension) > 0 ? masks.at(dimension) : 0;
    const std::int64_t bound = instance.bounds.at(dimension);
    if (const std::optional<Role> role = role_of(mask)) {
      std::int64_t& extent = extents.*(role->extent);
      extent = checked_product(extent, bound, instance.where, role->name);
    } else if (bound > 1) {  // a dimension of one step changes nothing
      shape.dimension_views[i].fail(
          fmt::format("dimension '{}' ({} = {} in the instance) indexes {}; every dimension of a conv or GEMM "
                      "indexes two or three of its tensors",
                      dimension, dimension, bound, describe_mask(mask, operands)));
    }
  }
  return extents;
}

// ---- Sizes ----

std::int64_t exact_input_size(const Axis& axis, const Instance& instance) {
  std::int64_t strided = 0, dilated = 0, size = 0;
  const bool overflow = __builtin_mul_overflow(axis.output - 1, axis.stride, &strided) ||
                        __builtin_mul_overflow(axis.kernel - 1, axis.dilation, &dilated) ||
                        __builtin_add_overflow(strided, dilated + 1, &size);
  if (overflow || size > kMaxSize) {
    instance.where.fail(
        fmt::format("the input along {} and {}, ({} - 1) x stride + ({} - 1) x dilation + 1, would be "
                    "larger than 2^31, the most a workload holds",
                    axis.output_dimension, axis.filter_dimension, axis.output_dimension, axis.filter_dimension));
  }
  return size;
}

struct InputExtent {
  std::int64_t size = 1, padding = 0;
};

// Timeloop has no padding: the input is exactly what the outputs read, unless the stated size and padding
// (H/W, Hpad/Wpad) give the same number of outputs, as Ergon's floor formula counts them.
InputExtent input_extent(const Axis& axis, const std::string& size_key, const Instance& instance,
                         std::vector<std::string>& warnings) {
  const InputExtent exact{exact_input_size(axis, instance), 0};
  const std::string pad_key = size_key + "pad";
  const auto size = instance.stated_sizes.find(size_key);
  const auto pad = instance.stated_sizes.find(pad_key);
  if (size == instance.stated_sizes.end()) {
    if (pad != instance.stated_sizes.end() && pad->second != 0) {
      warnings.push_back(fmt::format("{}: {} without {} is ignored (Timeloop ignores both); the input is {}, unpadded",
                                     instance.locations.at(pad_key), pad_key, size_key, exact.size));
    }
    return exact;
  }
  const InputExtent stated{size->second, pad == instance.stated_sizes.end() ? 0 : pad->second};
  const std::int64_t padded = stated.size + 2 * stated.padding;  // both below 2^32: no overflow
  const std::int64_t span = (axis.kernel - 1) * axis.dilation + 1;
  const std::int64_t outputs = padded < span ? 0 : (padded - span) / axis.stride + 1;
  if (outputs == axis.output) return stated;
  const std::string expected = axis.output_dimension.empty()
                                   ? "1 (the problem has no window along it)"
                                   : fmt::format("{} = {}", axis.output_dimension, axis.output);
  warnings.push_back(
      fmt::format("{}: {} = {} with {} = {} gives {} outputs along this axis, not {}; Timeloop ignores {} and {}, "
                  "and so does this import: the input is {}, unpadded",
                  instance.locations.at(size_key), size_key, stated.size, pad_key, stated.padding, outputs, expected,
                  size_key, pad_key, exact.size));
  return exact;
}

void warn_unused_sizes(const Instance& instance, std::vector<std::string>& warnings) {
  for (const auto& [key, value] : instance.stated_sizes) {
    warnings.push_back(
        fmt::format("{}: {} = {} is ignored: the problem has no sliding window (Timeloop ignores it too)",
                    instance.locations.at(key), key, value));
  }
}

void size_convolution(const Windows& windows, const Instance& instance, TimeloopLayer& layer,
                      std::vector<std::string>& warnings) {
  const Axis unit;  // an axis without a window: one tap, one output
  const Axis& width = windows.width ? *windows.width : unit;
  const Axis& height = windows.height ? *windows.height : unit;
  const InputExtent across = input_extent(width, "W", instance, warnings);
  const InputExtent down = input_extent(height, "H", instance, warnings);
  layer.input_w = across.size;
  layer.input_h = down.size;
  layer.output_w = width.output;
  layer.output_h = height.output;
  Window& window = layer.window;
  window.kernel_w = width.kernel;
  window.kernel_h = height.kernel;
  window.stride_w = width.stride;
  window.stride_h = height.stride;
  window.dilation_w = width.dilation;
  window.dilation_h = height.dilation;
  window.padding = Padding{down.padding, down.padding, across.padding, across.padding, false};
}

Sparsity sparsity_of(const Operands& operands, const Instance& instance, std::vector<std::string>& warnings) {
  Sparsity sparsity;
  const auto density = [&](const DataSpace* space) {
    const auto found = instance.densities.find(space->name);
    return found == instance.densities.end() ? 1.0 : found->second;
  };
  sparsity.ifmap = 1.0 - density(operands.inputs);
  sparsity.ofmap = 1.0 - density(operands.outputs);
  if (density(operands.weights) < 1.0) {
    warnings.push_back(
        fmt::format("{}: the density of {} (the weights) is not modelled: Ergon models the zeros of a "
                    "layer's inputs and outputs only, and takes the weights dense",
                    instance.locations.at(operands.weights->name), operands.weights->name));
  }
  return sparsity;
}

std::uint64_t operation_count(const Instance& instance) {
  std::uint64_t count = 1;
  for (const auto& [dimension, bound] : instance.bounds) {
    if (__builtin_mul_overflow(count, static_cast<std::uint64_t>(bound), &count)) {
      instance.where.fail("the product of every bound (the operation space) does not fit in 64 bits");
    }
  }
  return count;
}

std::string describe(const Shape& shape, const Instance& instance) {
  std::string text = shape.name.empty() ? "unnamed shape" : shape.name;
  for (const std::string& dimension : shape.dimensions) {
    text += fmt::format(" {}={}", dimension, instance.bounds.at(dimension));
  }
  for (const auto& [name, value] : instance.coefficients) text += fmt::format(" {}={}", name, value);
  return text;
}

TimeloopLayer build_layer(const Shape& shape, const Instance& instance, std::vector<std::string>& warnings) {
  const Operands operands = assign_operands(shape);
  check_ranks(*operands.inputs, true, instance);
  check_ranks(*operands.weights, false, instance);
  check_ranks(*operands.outputs, false, instance);
  const std::map<std::string, unsigned> masks = operand_masks(operands);
  const Windows windows = read_windows(operands, masks, instance);
  const Extents extents = classify_dimensions(shape, instance, operands, masks, windows);
  TimeloopLayer layer;
  layer.description = describe(shape, instance);
  layer.gemm = !windows.width && !windows.height;
  layer.groups = extents.groups;
  layer.channels_per_group = extents.channels;
  layer.filters_per_group = extents.filters;
  checked_product(extents.groups, extents.channels, instance.where, "the input channels (groups x channels)");
  checked_product(extents.groups, extents.filters, instance.where, "the output channels (groups x filters)");
  if (layer.gemm) {  // the rows of the product run down the height, as a 1x1 conv reads them
    layer.input_h = layer.output_h = extents.batch;
    warn_unused_sizes(instance, warnings);
  } else {
    layer.batch = checked_product(1, extents.batch, instance.where, "the batch", kMaxBatch);
    size_convolution(windows, instance, layer, warnings);
  }
  layer.sparsity = sparsity_of(operands, instance, warnings);
  layer.operation_count = operation_count(instance);
  return layer;
}

TimeloopLayer read_problem_file(const std::string& path, std::vector<std::string>& warnings) {
  refuse_template_syntax(path);
  auto origin = std::make_shared<YamlOrigin>(YamlOrigin{path, {}});
  YamlMap root(YamlView(load_yaml_file(path), origin, ""));  // other top-level keys (architecture, ...) are not ours
  YamlMap problem = root.get_map("problem");
  if (problem.has("<<<")) {
    problem.at("<<<").fail(
        "timeloopfe's merge key '<<<' is not YAML; import the rendered problem (timeloopfe "
        "writes it into parsed-processed-input.yaml)");
  }
  check_version(problem);
  const Shape shape = read_shape(problem, warnings);
  const Instance instance = read_instance(problem, shape);
  problem.reject_unknown_keys();
  TimeloopLayer layer = build_layer(shape, instance, warnings);
  layer.source_path = path;
  layer.name = std::filesystem::path(path).stem().string();
  return layer;
}

// Each file becomes the layers "<stem>.ifmap" and "<stem>", which must be unique and not the report's total row.
void make_names_unique(std::vector<TimeloopLayer>& layers, std::vector<std::string>& warnings) {
  std::map<std::string, std::string> file_of_name = {{kTotalRowName, "the reports' total row"}};
  for (TimeloopLayer& layer : layers) {
    const std::string wanted = layer.name.empty() ? "problem" : layer.name;
    layer.name = wanted;
    for (int suffix = 2; file_of_name.count(layer.name) > 0 || file_of_name.count(layer.name + ".ifmap") > 0;
         ++suffix) {
      layer.name = wanted + "_" + std::to_string(suffix);
    }
    if (layer.name != wanted) {
      const std::string clash = file_of_name.count(wanted) > 0 ? wanted : wanted + ".ifmap";
      warnings.push_back(fmt::format("{}: the layer name '{}' is already used for {}; renamed '{}'", layer.source_path,
                                     wanted, file_of_name.at(clash), layer.name));
    }
    file_of_name[layer.name] = layer.source_path;
    file_of_name[layer.name + ".ifmap"] = layer.source_path;
  }
}

std::string yaml_escaped(const std::string& text) {
  std::string escaped;
  for (const char c : text) {
    if (c == '"' || c == '\\') escaped += '\\';
    escaped += c;
  }
  return escaped;
}

std::string sparsity_text(const Sparsity& sparsity) {
  if (sparsity.ifmap <= 0.0 && sparsity.ofmap <= 0.0) return "";
  return fmt::format(", sparsity: {{ifmap: {:.6g}, ofmap: {:.6g}}}", sparsity.ifmap, sparsity.ofmap);
}

// A GEMM of one row without groups is an fc; every other layer a conv (a GEMM's a 1x1 conv over [K, rows, 1]).
std::string layer_nodes(const TimeloopLayer& l, bool intermediate) {
  const bool fc = l.gemm && l.groups == 1 && l.input_h == 1;
  const std::string name = yaml_escaped(l.name);
  const std::string input_shape =
      fc ? fmt::format("[{}]", l.channels_per_group)
         : fmt::format("[{}, {}, {}]", l.groups * l.channels_per_group, l.input_h, l.input_w);
  const Window& w = l.window;
  const std::string operation =
      fc ? fmt::format("op: fc, outputs: {}", l.filters_per_group)
         : fmt::format(
               "op: conv, filters: {}, groups: {}, kernel: [{}, {}], stride: [{}, {}], dilation: [{}, {}], "
               "padding: [{}, {}]",
               l.groups * l.filters_per_group, l.groups, w.kernel_h, w.kernel_w, w.stride_h, w.stride_w, w.dilation_h,
               w.dilation_w, w.padding.top, w.padding.left);
  return fmt::format("  - {{name: \"{}.ifmap\", op: input, shape: {}{}}}\n", name, input_shape,
                     intermediate ? ", intermediate: true" : "") +
         fmt::format(
             "  - {{name: \"{}\", {}, inputs: [\"{}.ifmap\"], bias: false, batch: {}{}, comment: \"{}: {}\"}}\n", name,
             operation, name, l.batch, sparsity_text(l.sparsity),
             yaml_escaped(std::filesystem::path(l.source_path).filename().string()), yaml_escaped(l.description));
}

}  // namespace

TimeloopImport read_timeloop_problems(const std::vector<std::string>& paths) {
  TimeloopImport imported;
  for (const std::string& path : paths) imported.layers.push_back(read_problem_file(path, imported.warnings));
  make_names_unique(imported.layers, imported.warnings);
  return imported;
}

std::string timeloop_workload_yaml(const std::vector<TimeloopLayer>& layers, const std::string& name) {
  std::string sources;
  for (const TimeloopLayer& layer : layers) sources += (sources.empty() ? "" : ", ") + layer.source_path;
  std::string text =
      "# Imported from Timeloop problem files by `ergon import timeloop` (docs/workloads.md).\n"
      "# Timeloop has no padding: each input is exactly what its outputs read, unpadded, unless the problem's\n"
      "# H/W and Hpad/Wpad give the same output size. batch = Timeloop's N; a GEMM's rows run down the height.\n";
  text += fmt::format("name: \"{}\"\nsource: \"Timeloop problem {}\"\nindependent_layers: true\nlayers:\n",
                      yaml_escaped(name), yaml_escaped(sources));
  for (std::size_t i = 0; i < layers.size(); ++i) text += layer_nodes(layers[i], i > 0);
  return text;
}

}  // namespace ergon
