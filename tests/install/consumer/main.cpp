// Simulates a workload on the installed Eyeriss config through the installed libraries and prints the
// total cycles, for tests/install/check_install.sh to compare with the installed `ergon run`.
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>

#include "arch/accelerator_config.hpp"
#include "network/workload.hpp"
#include "power/energy_table.hpp"
#include "sim/data_paths.hpp"
#include "sim/simulation.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: ergon_consumer WORKLOAD_YAML\n";
    return 2;
  }
  // The library resolves energy table names through ERGON_DATA_DIR; default it to the package's data.
  setenv("ERGON_DATA_DIR", ERGON_INSTALLED_DATA_DIR, 0);
  try {
    const ergon::AcceleratorConfig config =
        ergon::load_accelerator_config(ergon::shipped_data_dir() + "/configs/eyeriss.yaml");
    const ergon::EnergyTable table = ergon::load_energy_table(ergon::energy_table_path(config));
    const ergon::Workload workload = ergon::load_workload(argv[1]);
    const ergon::SimulationResult result = ergon::Simulation(config, table, workload, {}).run();
    std::cout << "total cycles: " << result.total.cycles << "\n";
  } catch (const std::exception& error) {
    std::cerr << "ergon_consumer: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
