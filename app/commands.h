// The rebound subcommands. Each returns the process exit status: 0 ok, 2 bad input, 1 run
// failure (UsageError / CaseError / RunError thrown out of a command are mapped by main()).
#pragma once

#include <string>
#include <vector>

namespace rebound::app {

using Command = int (*)(const std::vector<std::string>& arguments);

int command_init(const std::vector<std::string>& arguments);
int command_check(const std::vector<std::string>& arguments);
int command_lumped(const std::vector<std::string>& arguments);
int command_sweep(const std::vector<std::string>& arguments);
int command_validate(const std::vector<std::string>& arguments);
int command_mesh(const std::vector<std::string>& arguments);
int command_fem(const std::vector<std::string>& arguments);
int command_pair(const std::vector<std::string>& arguments);
int command_refine(const std::vector<std::string>& arguments);

}  // namespace rebound::app
