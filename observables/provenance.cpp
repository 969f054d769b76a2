#include "observables/provenance.h"

#include <unistd.h>

#include <ctime>

#include "cases/resolved.h"
#include "rebound/git_commit.h"
#include "rebound/version.h"

namespace rebound::observables {
namespace {

Invocation& stored() {
  static Invocation value;
  return value;
}

}  // namespace

void set_invocation(const Invocation& invocation) {
  stored() = invocation;
}

const Invocation& invocation() {
  return stored();
}

nlohmann::json provenance(const cases::Case& c) {
  char host[256] = "unknown";
  if (::gethostname(host, sizeof host - 1) != 0) std::snprintf(host, sizeof host, "unknown");
  host[sizeof host - 1] = '\0';
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &utc);
  const nlohmann::json resolved = cases::resolved_json(c);
  return {{"rebound_version", REBOUND_VERSION},
          {"git_commit", REBOUND_GIT_COMMIT},
          {"date", date},
          {"host", host},
          {"command_line", stored().command_line},
          {"mpi_ranks", stored().mpi_ranks},
          {"case_file", c.source},
          {"case_hash", cases::text_hash(resolved.dump())},
          {"case", resolved}};
}

std::string provenance_markdown(const nlohmann::json& p) {
  auto text = [&p](const char* key) {
    return p.contains(key) ? (p[key].is_string() ? p[key].get<std::string>() : p[key].dump())
                           : std::string("-");
  };
  return "rebound " + text("rebound_version") + " (commit " + text("git_commit") + "), " +
         text("date") + " on " + text("host") + ", " + text("mpi_ranks") +
         " MPI rank(s).  \nCommand: `" + text("command_line") + "`  \nCase: `" + text("case_file") +
         "` (hash " + text("case_hash") +
         "; comparison.json and every summary.json carry the case as read, every default "
         "filled).\n";
}

}  // namespace rebound::observables
