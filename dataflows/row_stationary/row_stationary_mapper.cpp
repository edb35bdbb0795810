#include "dataflows/row_stationary/row_stationary_mapper.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <vector>

#include "dataflows/integer_math.hpp"
#include "dataflows/row_stationary/row_stationary_replay.hpp"

namespace ergon {
namespace {

// Tile sizes worth trying for an extent, largest first: ceil(extent / k) for every block count k whose
// tile fits `cap` (other sizes give the same number of blocks with bigger edge waste).
std::vector<std::int64_t> tile_sizes(std::int64_t extent, std::int64_t cap) {
  std::vector<std::int64_t> sizes;
  if (cap < 1) return sizes;
  for (std::int64_t blocks = ceil_div(extent, std::min(cap, extent)); blocks <= extent;) {
    const std::int64_t size = ceil_div(extent, blocks);
    sizes.push_back(size);
    if (size == 1) break;
    blocks = ceil_div(extent, size - 1);  // the next smaller size
  }
  return sizes;
}

// For every filter-set count, the largest filters-per-PE size that wastes the fewest PE cycles on the
// layer's last, partial filter block (the busiest PE computes `size` filters in every block, so blocks x
// size is the work per PE): worth trying besides the largest sizes, which reuse ifmaps most.
std::vector<std::int64_t> least_waste_filters_per_pe(std::int64_t filters, std::int64_t cap,
                                                     std::int64_t max_filter_sets) {
  std::vector<std::int64_t> sizes;
  for (std::int64_t sets = 1; sets <= max_filter_sets && cap >= 1; ++sets) {
    std::int64_t best = cap;
    for (std::int64_t size = cap; size >= 1; --size) {
      if (ceil_div(filters, sets * size) * size < ceil_div(filters, sets * best) * best) best = size;
    }
    if (std::find(sizes.begin(), sizes.end(), best) == sizes.end()) sizes.push_back(best);
  }
  return sizes;
}

bool allowed(const std::optional<std::int64_t>& pinned, std::int64_t value) {
  return !pinned || *pinned == value;
}

// The sizes to try for an extent: the pinned one alone (whether or not the search would have tried it, as
// long as it is within the extent and `cap`), else tile_sizes().
std::vector<std::int64_t> sizes_to_try(std::int64_t extent, std::int64_t cap,
                                       const std::optional<std::int64_t>& pinned) {
  if (!pinned) return tile_sizes(extent, cap);
  if (*pinned > std::min(extent, cap)) return {};
  return {*pinned};
}

// Every array-level tiling the hardware and the constraints allow, with pruning: smaller filters-per-PE
// and filter-set counts only cut reuse (unless they waste less on the last filter block), and of the
// channel-set counts that leave the same rows for filter sets the largest uses more PEs; so only the
// three largest filters-per-PE sizes and those of least_waste_filters_per_pe(), the two largest filter-set counts and
// the largest such channel-set count that fit the GLB go on (pinned values are always tried). `visit` returns whether
// the tiling fits.
template <typename Visitor>
void for_each_tiling(const LoopNest& nest, const ArrayResources& hw, const MappingConstraints& pin, Visitor&& visit) {
  const bool weights = nest.kind == LoopNestKind::kConv;
  const std::int64_t filter_rf = hw.filter_rf_words / (hw.filter_rf_double_buffered ? 2 : 1);
  RowStationaryTiling t;
  t.filter_rows = ceil_div(nest.filter_h, ceil_div(nest.filter_h, hw.pe_rows));  // balanced folds
  const std::int64_t column_cap = weights ? std::min(hw.ifmap_rf_words, filter_rf) : hw.ifmap_rf_words;
  if (column_cap < 1) return;
  t.filter_cols = ceil_div(nest.filter_w, ceil_div(nest.filter_w, column_cap));

  // Filter sets and images of a set layout; true when one fitted.
  const auto visit_filter_sets = [&](std::int64_t t_cap, std::int64_t cols_per_group) {
    int fitted = 0;
    for (const std::int64_t sets : sizes_to_try(ceil_div(nest.filters, t.filters_per_pe), t_cap, pin.filter_sets)) {
      if (fitted == 2 && !pin.filter_sets) break;
      t.filter_sets = sets;
      t.filter_set_columns = std::min(cols_per_group, sets);
      bool any = false;
      for (const std::int64_t n : sizes_to_try(nest.images, nest.images, pin.images)) {
        t.images = n;
        any = visit(t) || any;
      }
      fitted += any ? 1 : 0;
    }
    return fitted > 0;
  };
  // Groups side by side, then channel sets, for the current e, q and p; true when one fitted.
  const auto visit_set_layouts = [&](std::int64_t vertical, std::int64_t horizontal) {
    bool any = false;
    for (std::int64_t group_rows = 1; group_rows <= vertical; ++group_rows) {
      for (std::int64_t group_cols = 1; group_cols <= horizontal; ++group_cols) {
        const std::int64_t places = group_rows * group_cols;
        // One group at a time, or several without places left over.
        if (places > 1 && (nest.groups == 1 || (group_rows - 1) * group_cols >= nest.groups ||
                           group_rows * (group_cols - 1) >= nest.groups)) {
          continue;
        }
        t.group_sets = std::min(nest.groups, places);
        t.group_set_columns = group_cols;
        if (!allowed(pin.group_sets, t.group_sets)) continue;
        const std::int64_t rows_per_group = vertical / group_rows, cols_per_group = horizontal / group_cols;
        std::int64_t fitted_rows_left = -1;  // rows left for filter sets by the last channel-set count that fitted
        for (std::int64_t r = std::min(rows_per_group, ceil_div(nest.channels, t.channels_per_pe)); r >= 1; --r) {
          const std::int64_t rows_left = rows_per_group / r;
          if (!allowed(pin.channel_sets, r) || (rows_left == fitted_rows_left && !pin.channel_sets)) continue;
          t.channel_sets = r;
          if (visit_filter_sets(std::min(ceil_div(nest.filters, t.filters_per_pe), rows_left * cols_per_group),
                                cols_per_group)) {
            fitted_rows_left = rows_left;
            any = true;
          }
        }
      }
    }
    return any;
  };

  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::int64_t>> least_waste_sizes;  // by cap, set places
  for (const std::int64_t e : sizes_to_try(nest.ofmap_h, hw.pe_cols * (hw.pe_rows / t.filter_rows), pin.ofmap_rows)) {
    t.ofmap_rows = e;
    const std::int64_t folds = t.set_folds(hw.pe_cols);
    const std::int64_t vertical = hw.pe_rows / (t.filter_rows * folds);
    const std::int64_t horizontal = folds > 1 ? 1 : hw.pe_cols / t.set_cols(hw.pe_cols);
    const std::int64_t q_cap = std::min(nest.channels, hw.ifmap_rf_words / t.filter_cols);
    for (std::int64_t q = 1; q <= std::min(q_cap, weights ? filter_rf / t.filter_cols : q_cap); ++q) {
      if (!allowed(pin.channels_per_pe, q)) continue;
      t.channels_per_pe = q;
      const std::int64_t p_cap =
          weights ? std::min({nest.filters, hw.psum_rf_words, filter_rf / (q * t.filter_cols)}) : 1;
      std::vector<std::int64_t>& least_waste = least_waste_sizes[{p_cap, vertical * horizontal}];
      if (weights && least_waste.empty())
        least_waste = least_waste_filters_per_pe(nest.filters, p_cap, vertical * horizontal);
      int fitted = 0;
      for (const std::int64_t p : sizes_to_try(nest.filters, p_cap, pin.filters_per_pe)) {
        const bool always = std::find(least_waste.begin(), least_waste.end(), p) != least_waste.end();
        if (fitted >= 3 && !pin.filters_per_pe && !always) continue;
        t.filters_per_pe = p;
        fitted += visit_set_layouts(vertical, horizontal) ? 1 : 0;
      }
    }
  }
}

// The figures of a tiling that neither the buffers' capacity nor the prices change: its fit to the array with
// the fewest slots, and the array's cycles without filter reuse and on-chip counts that the first stage
// scores it by (DRAM and the loop order come in stage 2).
TilingFigures tiling_figures(const LoopNest& nest, const MapperContext& context, const RowStationaryTiling& tiling) {
  TilingFigures figures;
  figures.tiling = tiling;
  const RowStationaryMapping smallest{tiling, {}, {1, 1, 0}, false};
  figures.fits_array = fits_array(nest, context.hw, smallest);
  figures.glb_words = mapping_footprint(nest, smallest).glb_words;
  if (!figures.fits_array) return figures;
  const TilingAnalysis analysis = analyse_tiling(nest, tiling, context.encoding, false);
  figures.on_chip = on_chip_counts(analysis.base);
  figures.cycles_without_reuse = array_cycles_without_reuse(analysis, context.timing);
  return figures;
}

// The array-level figures that prune tilings under the objective.
struct ArrayScore {
  double energy_pj = 0;
  double cycles = 0;
};
ArrayScore array_score(const TilingFigures& figures, const MapperContext& context) {
  ArrayScore score;
  score.cycles = figures.cycles_without_reuse;
  score.energy_pj = on_chip_pj(context.energies, figures.on_chip) + score.cycles * context.energies.cycle_pj;
  return score;
}

std::vector<std::int64_t> slot_options(std::vector<std::int64_t> options, std::int64_t low, std::int64_t tiles,
                                       const std::optional<std::int64_t>& pinned) {
  if (pinned) return {*pinned};
  std::set<std::int64_t> unique;
  for (const std::int64_t option : options) unique.insert(std::clamp(option, low, std::max(low, tiles)));
  return {unique.begin(), unique.end()};
}

// A GLB-level mapping and its counts and cycles, unpriced.
struct GlbLevelCandidate {
  RowStationaryMapping mapping;
  MappingCost cost;
};

// Stage 2 for one tiling: every GLB-level mapping that fits the hardware and the pins, with its counts and
// cycles (unpriced), appended to `candidates`: the loop orders (one per schedule of the loops that iterate),
// the slots worth trying for each (those that keep a tensor across the loop that would refetch it) and single
// or double buffering.
void add_glb_level_candidates(const LoopNest& nest, const MapperContext& context, const MappingConstraints& pin,
                              const RowStationaryTiling& tiling, std::vector<GlbLevelCandidate>& candidates) {
  const TilingAnalysis analysis = analyse_tiling(nest, tiling, context.encoding);
  const auto consider = [&](const RowStationaryMapping& mapping) {
    if (!mapping_fits(nest, context.hw, mapping)) return;
    MappingCost cost = mapping_counts(nest, analysis, mapping, context.encoding, context.timing);
    if (pin.psum_spill && !*pin.psum_spill && cost.psum_spill_words > 0) return;
    candidates.push_back({mapping, std::move(cost)});
  };
  const BlockCounts& b = analysis.blocks;
  const bool weights = nest.kind == LoopNestKind::kConv;
  const std::int64_t ifmap_tiles = b.groups * b.images * b.channels * b.ofmap_rows;
  const std::int64_t psum_tiles = b.groups * b.images * b.filters * b.ofmap_rows;
  const std::int64_t filter_tiles = weights ? b.groups * b.filters * b.channels : 0;
  std::set<std::vector<TemporalDim>> seen;
  for (const LoopOrder& order : all_loop_orders()) {
    if (pin.order && *pin.order != order) continue;
    const TemporalLoops loops = iterating_loops(order, b);
    std::vector<TemporalDim> schedule;
    for (const TemporalLoop& loop : loops) schedule.push_back(loop.dim);
    if (!seen.insert(schedule).second) continue;
    const auto inside = [&](TemporalDim dim, GlbTensor tensor) {
      return static_cast<std::int64_t>(tiles_inside(loops, dim, tensor));
    };
    const auto ifmap_slots = slot_options(
        {1, 2, inside(TemporalDim::kOfmapRows, GlbTensor::kIfmap), inside(TemporalDim::kFilters, GlbTensor::kIfmap)}, 1,
        ifmap_tiles, pin.ifmap_slots);
    auto psum_slots =
        slot_options({1, 2, inside(TemporalDim::kChannels, GlbTensor::kPsum)}, 1, psum_tiles, pin.psum_slots);
    if (pin.psum_spill) {  // psums spill when the channel loop's inner tiles outnumber the psum slots
      const std::int64_t psums_inside = inside(TemporalDim::kChannels, GlbTensor::kPsum);
      psum_slots.erase(std::remove_if(psum_slots.begin(), psum_slots.end(),
                                      [&](std::int64_t psum) { return (psums_inside > psum) != *pin.psum_spill; }),
                       psum_slots.end());
    }
    const auto filter_slots = weights ? slot_options({0, 1, inside(TemporalDim::kImages, GlbTensor::kFilter),
                                                      inside(TemporalDim::kOfmapRows, GlbTensor::kFilter)},
                                                     0, filter_tiles, pin.filter_slots)
                                      : std::vector<std::int64_t>{0};
    for (const bool double_buffered : {true, false}) {
      if (pin.double_buffered && *pin.double_buffered != double_buffered) continue;
      for (const std::int64_t ifmap : ifmap_slots) {
        for (const std::int64_t psum : psum_slots) {
          for (const std::int64_t filter : filter_slots)
            consider({tiling, order, {ifmap, psum, filter}, double_buffered});
        }
      }
    }
  }
}

// Stage 1's enumeration at the GLB's capacity: the tilings it visits that fit, in order (recorded in the memo
// with the capacities that visit the same ones).
const FirstStageVisits& first_stage_visits(const LoopNest& nest, const MapperContext& context,
                                           const MappingConstraints& pin, ShapeMemo& shape) {
  const std::int64_t capacity = context.hw.glb_words;
  if (const FirstStageVisits* recorded = shape.first_stage(capacity)) return *recorded;
  FirstStageVisits visits{0, std::numeric_limits<std::int64_t>::max(), {}};
  for_each_tiling(nest, context.hw, pin, [&](const RowStationaryTiling& tiling) {
    const std::uint32_t index = shape.tiling(tiling, [&] { return tiling_figures(nest, context, tiling); });
    const TilingFigures& figures = shape.figures(index);
    if (!figures.fits_array) return false;
    const std::int64_t words = figures.glb_words;
    if (words > capacity) {
      visits.max_glb_words = std::min(visits.max_glb_words, words - 1);
      return false;
    }
    visits.min_glb_words = std::max(visits.min_glb_words, words);
    visits.fitting.push_back(index);
    return true;
  });
  return shape.record_first_stage(std::move(visits));
}

// A GLB-level candidate priced.
struct Ranked {
  const GlbLevelCandidate* candidate = nullptr;
  double energy_pj = 0;
  double objective = 0;
  double cycles() const { return candidate->cost.cycles; }
};

std::vector<Ranked> price_candidates(const MapperContext& context, const std::vector<GlbLevelCandidate>& candidates) {
  std::vector<Ranked> ranked;
  ranked.reserve(candidates.size());
  for (const GlbLevelCandidate& candidate : candidates) {
    const double energy_pj = mapping_energy_pj(candidate.cost, context.energies);
    ranked.push_back({&candidate, energy_pj, objective_value(context.objective, energy_pj, candidate.cost.cycles)});
  }
  return ranked;
}

std::string no_mapping_message(const LoopNest& nest, const ArrayResources& hw) {
  RowStationaryTiling smallest;
  smallest.filter_rows = std::min(nest.filter_h, hw.pe_rows);
  const std::int64_t words = ifmap_tile_words(nest, smallest) + psum_tile_words(nest, smallest);
  if (words > hw.glb_words) {
    return fmt::format(
        "the global buffer ({} words) cannot hold the smallest row-stationary tile ({} words: one ifmap row "
        "segment and one psum row of width {}); enlarge glb.size_kib",
        hw.glb_words, words, nest.ofmap_w);
  }
  return "no row-stationary mapping fits the PE array and its register files (pe_array.rf)";
}

// Stage 3: the best few candidates by the closed form, their cycles replayed step by step; the best of them
// under the objective (ties keep the closed form's order).
MappingChoice best_replayed(const LoopNest& nest, const MapperContext& context, ShapeMemo& shape,
                            const std::vector<Ranked>& ranked) {
  constexpr std::size_t kReplayed = 8;
  // The closed form's order; ties keep the search's order.
  const auto closed_form_order = [&](std::size_t a, std::size_t b) {
    const Ranked &x = ranked[a], &y = ranked[b];
    if (ranks_before(context.objective, x.energy_pj, x.cycles(), y.energy_pj, y.cycles())) return true;
    return !ranks_before(context.objective, y.energy_pj, y.cycles(), x.energy_pj, x.cycles()) && a < b;
  };
  std::vector<std::size_t> order(ranked.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto replayed = static_cast<std::ptrdiff_t>(std::min(kReplayed, ranked.size()));
  std::partial_sort(order.begin(), order.begin() + replayed, order.end(), closed_form_order);
  std::optional<MappingChoice> best;
  for (std::ptrdiff_t i = 0; i < replayed; ++i) {
    const Ranked& closed_form = ranked[order[static_cast<std::size_t>(i)]];
    MappingChoice candidate{closed_form.candidate->mapping, closed_form.candidate->cost, 0, 0, 0, 0};
    MappingCost& cost = candidate.cost;
    cost.energy_pj = closed_form.energy_pj;
    candidate.ranked_objective = closed_form.objective;
    const double cycles = shape.replayed_cycles(
        candidate.mapping, [&] { return replayed_cycles(nest, candidate.mapping, context.encoding, context.timing); });
    cost.energy_pj += (cycles - cost.cycles) * context.energies.cycle_pj;  // the clock runs for the replayed time
    cost.cycles = cycles;
    cost.objective = objective_value(context.objective, cost.energy_pj, cost.cycles);
    if (!best ||
        ranks_before(context.objective, cost.energy_pj, cost.cycles, best->cost.energy_pj, best->cost.cycles)) {
      best = std::move(candidate);
    }
  }
  return *best;
}

bool pins_array_level(const MappingConstraints& c) {
  return c.ofmap_rows || c.channels_per_pe || c.filters_per_pe || c.channel_sets || c.filter_sets || c.images ||
         c.group_sets;
}

}  // namespace

MappingChoice map_row_stationary(const LoopNest& nest, const MapperContext& context,
                                 const MappingConstraints& constraints, RowStationarySearchMemo* memo) {
  ShapeMemo* kept =
      memo != nullptr && constraints.none() ? memo->shape(nest, context.hw, context.timing, context.encoding) : nullptr;
  ShapeMemo this_search_only(false);
  ShapeMemo& shape = kept != nullptr ? *kept : this_search_only;
  // Stage 1: every tiling's order-independent counts; keep the best few overall and the best of each
  // set width (narrow sets have small tiles that let the GLB keep more).
  struct Scored {
    ArrayScore score;
    std::uint32_t tiling;  // its figures' index
  };
  const FirstStageVisits& visits = first_stage_visits(nest, context, constraints, shape);
  std::vector<Scored> scored;
  scored.reserve(visits.fitting.size());
  for (const std::uint32_t index : visits.fitting)
    scored.push_back({array_score(shape.figures(index), context), index});
  // Ties keep the enumeration order, so the choice does not depend on the sort.
  const auto better = [&scored, &context](std::size_t a, std::size_t b) {
    const ArrayScore &x = scored[a].score, &y = scored[b].score;
    if (ranks_before(context.objective, x.energy_pj, x.cycles, y.energy_pj, y.cycles)) return true;
    return !ranks_before(context.objective, y.energy_pj, y.cycles, x.energy_pj, x.cycles) && a < b;
  };
  constexpr std::size_t kShortlist = 24;
  std::vector<std::size_t> order(scored.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const std::size_t best_count = std::min(kShortlist, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(best_count), order.end(), better);
  std::vector<bool> listed(scored.size(), false);
  for (std::size_t i = 0; i < best_count; ++i) listed[order[i]] = true;
  std::vector<std::pair<std::int64_t, std::size_t>> best_of_width;  // few widths: a list beats a map
  for (std::size_t i = 0; i < scored.size(); ++i) {
    const std::int64_t width = shape.figures(scored[i].tiling).tiling.ofmap_rows;
    const auto entry = std::find_if(best_of_width.begin(), best_of_width.end(),
                                    [width](const auto& best) { return best.first == width; });
    if (entry == best_of_width.end()) {
      best_of_width.emplace_back(width, i);
    } else if (better(i, entry->second)) {
      entry->second = i;
    }
  }
  for (const auto& [width, index] : best_of_width) listed[index] = true;
  std::vector<std::uint32_t> shortlist;
  for (std::size_t i = 0; i < scored.size(); ++i) {
    if (listed[i]) shortlist.push_back(scored[i].tiling);
  }

  // Stage 2: the GLB level of each shortlisted tiling.
  // Reused from search to search: a layer's candidates take megabytes, grown anew each time they cost a tenth
  // of a sweep point.
  static thread_local std::vector<GlbLevelCandidate> candidates;
  candidates.clear();
  for (const std::uint32_t index : shortlist) {
    add_glb_level_candidates(nest, context, constraints, shape.figures(index).tiling, candidates);
  }
  const std::vector<Ranked> ranked = price_candidates(context, candidates);
  if (ranked.empty()) {
    if (scored.empty() && pins_array_level(constraints)) {
      throw MappingError(fmt::format(
          "no row-stationary tiling with the pinned array-level parameters fits the {}x{} PE array, its register "
          "files (pe_array.rf) and the GLB; unpin or change them",
          context.hw.pe_rows, context.hw.pe_cols));
    }
    if (scored.empty()) throw MappingError(no_mapping_message(nest, context.hw));
    throw MappingError(
        "no mapping satisfies the pinned GLB-level parameters (loop_order, glb_slots, double_buffered, psum_spill) "
        "within the GLB and filter store");
  }
  std::vector<double> objectives;
  objectives.reserve(ranked.size());
  for (const Ranked& candidate : ranked) objectives.push_back(candidate.objective);
  MappingChoice choice = best_replayed(nest, context, shape, ranked);
  choice.candidates = objectives.size();
  choice.worst_objective = *std::max_element(objectives.begin(), objectives.end());
  std::nth_element(objectives.begin(), objectives.begin() + static_cast<std::ptrdiff_t>(objectives.size() / 2),
                   objectives.end());
  choice.median_objective = objectives[objectives.size() / 2];
  return choice;
}

}  // namespace ergon
