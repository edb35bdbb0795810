// The command-line half of the catalogue (`commands:` in test::catalogue_files()): each case runs
// the `ergon` binary in a fresh folder holding its files, and checks the exit status (docs/cli.md), that
// stderr starts with "error:" and holds every expected fragment, that no file in the folder changed, and
// that nothing was left behind except the files the case names under `leaves`.
#include <fcntl.h>
#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "tests/test_paths.hpp"

namespace ergon {
namespace {
namespace fs = std::filesystem;

struct CommandCase {
  std::string name;
  std::map<std::string, std::string> files;        // written into the folder: name -> content
  std::map<std::string, std::string> onnx_files;   // ONNX models written from protobuf text: name -> text
  std::map<std::string, std::string> copies;       // copied from the source tree: name -> path under it
  std::map<std::string, std::string> links;        // symbolic links: name -> target
  std::map<std::string, std::string> environment;  // variables set for the command
  std::vector<std::string> args;
  int exit_status = 0;
  std::vector<std::string> expected_fragments;
  std::vector<std::string> stdout_fragments;  // stdout holds each (--format)
  std::vector<std::string> stdout_lacks;      // stdout holds none (it is the report alone)
  std::vector<std::string> stderr_lacks;      // stderr holds none (--quiet)
  std::vector<std::string> leaves;            // entries the command may add to the folder
  std::vector<std::string> removes;           // entries (and what is under them) the command must remove
  std::string stdout_device;                  // stdout goes here (e.g. /dev/full) instead of being captured
  double interrupt_after_s = 0;               // > 0: send SIGINT after this long
  // Why the AddressSanitizer build skips the case (empty: it runs there too). SystemC 2.3's coroutines do
  // not announce their stack switches, so an exception thrown after a simulation ran may be misreported.
  std::string sanitizer_skip;
};

void PrintTo(const CommandCase& entry, std::ostream* stream) {
  *stream << entry.name;
}

// "{host}" in a path stands for this machine's name (staging folders carry it: `.NAME.staging.HOST.PID`).
std::string with_host(std::string path) {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  for (auto at = path.find("{host}"); at != std::string::npos; at = path.find("{host}")) path.replace(at, 6, host);
  return path;
}

std::map<std::string, std::string> with_host(const std::map<std::string, std::string>& entries) {
  std::map<std::string, std::string> named;
  for (const auto& [name, value] : entries) named[with_host(name)] = value;
  return named;
}

CommandCase read_command_case(const YAML::Node& node) {
  CommandCase entry;
  entry.name = node["name"].as<std::string>();
  if (node["files"]) entry.files = node["files"].as<std::map<std::string, std::string>>();
  if (node["onnx_files"]) entry.onnx_files = node["onnx_files"].as<std::map<std::string, std::string>>();
  if (node["copies"]) entry.copies = with_host(node["copies"].as<std::map<std::string, std::string>>());
  if (node["links"]) entry.links = node["links"].as<std::map<std::string, std::string>>();
  if (node["env"]) entry.environment = node["env"].as<std::map<std::string, std::string>>();
  entry.args = node["args"].as<std::vector<std::string>>();
  entry.exit_status = node["exit"].as<int>();
  if (node["expect"]) entry.expected_fragments = node["expect"].as<std::vector<std::string>>();
  if (node["stdout"]) entry.stdout_fragments = node["stdout"].as<std::vector<std::string>>();
  if (node["stdout_lacks"]) entry.stdout_lacks = node["stdout_lacks"].as<std::vector<std::string>>();
  if (node["stderr_lacks"]) entry.stderr_lacks = node["stderr_lacks"].as<std::vector<std::string>>();
  if (node["leaves"]) entry.leaves = node["leaves"].as<std::vector<std::string>>();
  if (node["removes"]) {
    for (const std::string& path : node["removes"].as<std::vector<std::string>>())
      entry.removes.push_back(with_host(path));
  }
  if (node["stdout_device"]) entry.stdout_device = node["stdout_device"].as<std::string>();
  if (node["interrupt_after_s"]) entry.interrupt_after_s = node["interrupt_after_s"].as<double>();
  if (node["sanitizer_skip"]) entry.sanitizer_skip = node["sanitizer_skip"].as<std::string>();
  return entry;
}

std::vector<CommandCase> load_command_cases() {
  std::vector<CommandCase> cases;
  for (const std::string& file : test::catalogue_files()) {
    const YAML::Node root = YAML::LoadFile(file);
    for (const YAML::Node& node : root["commands"]) cases.push_back(read_command_case(node));
  }
  return cases;
}

std::string read_file(const fs::path& path) {
  std::ifstream stream(path, std::ios::binary);
  std::stringstream text;
  text << stream.rdbuf();
  return text.str();
}

// Every entry of the folder (links not followed) and, for regular files, the content.
// Links are not followed (a case may hold a loop of links).
void snapshot_into(const fs::path& root, const fs::path& folder, std::map<std::string, std::string>& entries) {
  for (const auto& entry : fs::directory_iterator(folder)) {
    const fs::file_status status = fs::symlink_status(entry.path());
    const std::string name = entry.path().lexically_relative(root).string();
    if (fs::is_symlink(status)) {
      entries[name] = "<link to " + fs::read_symlink(entry.path()).string() + ">";
    } else if (fs::is_directory(status)) {
      entries[name] = "<folder>";
      snapshot_into(root, entry.path(), entries);
    } else {
      entries[name] = read_file(entry.path());
    }
  }
}

std::map<std::string, std::string> snapshot(const fs::path& folder) {
  std::map<std::string, std::string> entries;
  snapshot_into(folder, folder, entries);
  return entries;
}

// Runs ergon with `args` in `folder`; stdout and stderr go to files beside it. Returns the exit status.
int run_ergon(const CommandCase& entry, const fs::path& folder, const fs::path& stdout_path,
              const fs::path& stderr_path) {
  std::vector<std::string> args = {test::ergon_binary()};
  args.insert(args.end(), entry.args.begin(), entry.args.end());
  const pid_t child = fork();
  if (child == 0) {
    if (chdir(folder.c_str()) != 0) _exit(126);
    for (const auto& [name, value] : entry.environment) setenv(name.c_str(), value.c_str(), 1);
    const fs::path out_path = entry.stdout_device.empty() ? stdout_path : fs::path(entry.stdout_device);
    const int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  if (entry.interrupt_after_s > 0) {
    std::this_thread::sleep_for(std::chrono::duration<double>(entry.interrupt_after_s));
    kill(child, SIGINT);
  }
  int status = 0;
  waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

class CommandCatalogueTest : public testing::TestWithParam<CommandCase> {};

TEST_P(CommandCatalogueTest, ExitsWithLocatedMessageAndLeavesInputsAlone) {
  const CommandCase& entry = GetParam();
#if defined(__SANITIZE_ADDRESS__)
  if (!entry.sanitizer_skip.empty()) GTEST_SKIP() << entry.sanitizer_skip;
#endif
  const fs::path root = test::unique_temp_path("ergon_command_catalogue_" + entry.name);
  const fs::path folder = root / "work";
  fs::remove_all(root);
  fs::create_directories(folder);
  for (const auto& [name, content] : entry.files) {
    fs::create_directories((folder / name).parent_path());  // a file may be in a folder ("out/results.csv")
    std::ofstream(folder / name, std::ios::binary) << content;
  }
  for (const auto& [name, text] : entry.onnx_files) {
    onnx::ModelProto model;
    ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &model)) << name << " is not ModelProto text";
    std::ofstream(folder / name, std::ios::binary) << model.SerializeAsString();
  }
  for (const auto& [name, source] : entry.copies) {
    fs::create_directories((folder / name).parent_path());
    fs::copy_file(test::source_dir() + "/" + source, folder / name);
  }
  for (const auto& [name, target] : entry.links) fs::create_symlink(target, folder / name);
  const auto before = snapshot(folder);

  const int status = run_ergon(entry, folder, root / "stdout.txt", root / "stderr.txt");
  const std::string errors = read_file(root / "stderr.txt");
  if (std::getenv("ERGON_PRINT_CATALOGUE")) std::cout << entry.name << " (" << status << "): " << errors;
  EXPECT_EQ(status, entry.exit_status) << "stderr: " << errors;
  if (entry.exit_status != 0) {
    const auto first_error = errors.find("error: ");
    EXPECT_TRUE(first_error == 0 || (first_error != std::string::npos && errors[first_error - 1] == '\n'))
        << "no line starts with 'error: '\n  stderr: " << errors;
  }
  for (const std::string& fragment : entry.expected_fragments) {
    EXPECT_NE(errors.find(fragment), std::string::npos) << "stderr lacks '" << fragment << "'\n  stderr: " << errors;
  }
  const std::string output = read_file(root / "stdout.txt");
  for (const std::string& fragment : entry.stdout_fragments) {
    EXPECT_NE(output.find(fragment), std::string::npos) << "stdout lacks '" << fragment << "'\n  stdout: " << output;
  }
  for (const std::string& fragment : entry.stdout_lacks) {
    EXPECT_EQ(output.find(fragment), std::string::npos) << "stdout holds '" << fragment << "'";
  }
  for (const std::string& fragment : entry.stderr_lacks) {
    EXPECT_EQ(errors.find(fragment), std::string::npos) << "stderr holds '" << fragment << "'\n  stderr: " << errors;
  }
  auto after = snapshot(folder);
  const auto removed = [&](const std::string& name) {
    for (const std::string& path : entry.removes) {
      if (name == path || name.rfind(path + "/", 0) == 0) return true;
    }
    return false;
  };
  for (const auto& [name, content] : before) {
    if (removed(name)) {
      EXPECT_EQ(after.count(name), 0u) << name << " should have been removed";
      after.erase(name);
      continue;
    }
    const auto found = after.find(name);
    ASSERT_NE(found, after.end()) << "the input " << name << " was removed";
    EXPECT_TRUE(found->second == content) << "the input " << name << " changed";
    after.erase(found);
  }
  for (const std::string& allowed : entry.leaves) {
    for (auto it = after.begin(); it != after.end();) {
      it = it->first == allowed || it->first.rfind(allowed + "/", 0) == 0 ? after.erase(it) : std::next(it);
    }
  }
  for (const auto& [name, content] : after) ADD_FAILURE() << "left behind: " << name;
  fs::remove_all(root);
}

INSTANTIATE_TEST_SUITE_P(Commands, CommandCatalogueTest, testing::ValuesIn(load_command_cases()),
                         [](const testing::TestParamInfo<CommandCase>& case_info) { return case_info.param.name; });

TEST(CommandCatalogue, CoversEveryExitStatus) {
  std::map<int, int> per_status;
  for (const auto& entry : load_command_cases()) ++per_status[entry.exit_status];
  for (int status : {0, 1, 2, 3}) EXPECT_GT(per_status[status], 0) << "no case exits with " << status;
}

}  // namespace
}  // namespace ergon
