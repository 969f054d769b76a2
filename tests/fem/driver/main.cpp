// Stand-alone `rebound fem` for the tests (and until app/ links command_fem.cpp): the same
// command function, with main()'s mapping of errors to exit statuses (2 input, 1 run).
#include <iostream>
#include <string>
#include <vector>

#include "app/cli.h"
#include "cases/case.h"

namespace rebound::app {
int command_fem(const std::vector<std::string>& arguments);
}

int main(int argc, char** argv) {
  const std::vector<std::string> arguments(argv + 1, argv + argc);
  try {
    return rebound::app::command_fem(arguments);
  } catch (const rebound::cases::CaseError& error) {
    std::cerr << "rebound fem: error: " << error.what() << "\n";
    return 2;
  } catch (const rebound::app::UsageError& error) {
    std::cerr << "rebound fem: error: " << error.what() << "\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "rebound fem: error: " << error.what() << "\n";
    return 1;
  }
}
