#pragma once
// Blackthorn's per-dimension model building (seed 004, Sec. IV-C, Algorithm 1 PROFILER): fit a curve
// along the first dimension; then fit each of its parameters as a curve along the second dimension,
// measuring the first-dimension fit at the points the second-dimension fitter chooses; and so on.
#include <functional>
#include <string>
#include <vector>

#include "power/estimators/blackthorn/curve_fitter.hpp"

namespace ergon::blackthorn {

struct Dimension {
  std::string name;
  std::vector<double> grid;  // candidate values, ascending
};

// Latency in ms at one point: coordinates[i] is the value of dimension i.
using LatencyFunction = std::function<double(const std::vector<double>& coordinates)>;

struct ProfileSettings {
  FitterSettings innermost = relative_fits();  // along dimension 0, on measured latencies
  FitterSettings outer;                        // along the others, on fitted parameters (absolute)

  static FitterSettings relative_fits() {
    FitterSettings settings;
    settings.relative_error = true;
    return settings;
  }
};

struct ProfileResult {
  Curve model;
  std::size_t measurements = 0;    // distinct latencies measured
  std::size_t fits = 0;            // 1-D fits made, at every level of the nesting
  std::size_t fits_at_budget = 0;  // of those, fits that stopped at their measurement budget

  bool converged() const { return fits_at_budget == 0; }  // every 1-D fit ended with one hypothesis
};

ProfileResult profile_dimensions(const std::vector<Dimension>& dimensions, const LatencyFunction& latency,
                                 const ProfileSettings& settings);

// A grid of whole numbers lo, lo+1, ..., hi.
std::vector<double> integer_grid(int low, int high);

}  // namespace ergon::blackthorn
