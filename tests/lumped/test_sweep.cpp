// lumped::run_sweep at given values (the Python module's sweep) against the range form (the
// command line's): the same point, bit for bit, whatever the order, spacing and thread count.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cases/case.h"
#include "lumped/sweep.h"

using namespace rebound;

namespace {

cases::Case sphere() {
  return cases::load_case(std::string(REBOUND_SOURCE_DIR) + "/cases/sphere-lai-psi2.json");
}

lumped::SweepRange psi1_range(double start, double stop, int count) {
  lumped::SweepRange range;
  range.variable = lumped::SweepVariable::psi1;
  range.start = start;
  range.stop = stop;
  range.count = count;
  return range;
}

void expect_same_point(const lumped::SweepPoint& a, const lumped::SweepPoint& b) {
  EXPECT_EQ(a.value, b.value);
  EXPECT_EQ(a.phases, b.phases);
  EXPECT_EQ(a.error, b.error);
  EXPECT_EQ(a.gamma_t, b.gamma_t);
  EXPECT_EQ(a.gamma_n, b.gamma_n);
  ASSERT_EQ(a.scalars.size(), b.scalars.size());
  for (std::size_t k = 0; k < a.scalars.size(); ++k) {
    if (std::isnan(a.scalars[k])) {
      EXPECT_TRUE(std::isnan(b.scalars[k])) << "scalar " << k;
    } else {
      EXPECT_EQ(a.scalars[k], b.scalars[k]) << "scalar " << k;
    }
  }
}

}  // namespace

TEST(Sweep, ValuesEqualTheRangeBitForBitInAnyOrderAndThreadCount) {
  const cases::Case base = sphere();
  const lumped::SweepRange range = psi1_range(0.1, 8, 41);
  const auto by_range = lumped::run_sweep(base, range, 1);
  ASSERT_EQ(by_range.size(), 41u);

  // Reversed values on 3 threads: row i is values[i].
  std::vector<double> values;
  for (int i = range.count - 1; i >= 0; --i) values.push_back(range.value(i));
  const auto by_values = lumped::run_sweep(base, range.variable, values, 3);
  ASSERT_EQ(by_values.size(), values.size());
  for (int i = 0; i < range.count; ++i) {
    SCOPED_TRACE(i);
    expect_same_point(by_range[i], by_values[range.count - 1 - i]);
  }
  // Not all points alike (the test would pass on a constant function otherwise).
  EXPECT_NE(by_range.front().scalars[1], by_range.back().scalars[1]);
  EXPECT_TRUE(by_range.front().error.empty());
}

// The half-space model on 2 threads: each point builds its own grid, so FFT plans are made and
// destroyed on both threads at once (FFTW's planner is not thread-safe; halfspace::RealFft2d
// serialises it). The rows equal the serial sweep's bit for bit: the plans are FFTW_ESTIMATE's,
// the same for the same length whichever thread makes them. 8 and 12 cells across the contact
// (grids of 11 and 15 cells, transform lengths 24 and 30), 8 points each.
TEST(Sweep, HalfSpaceOnTwoThreadsEqualsSerialBitForBit) {
  for (const int cells : {8, 12}) {
    cases::Case halfspace = lumped::case_with_model(sphere(), "halfspace");
    halfspace.lumped.cells = cells;
    halfspace.lumped.time_steps = 40;
    const lumped::SweepRange range = psi1_range(0.5, 4, 8);
    const auto serial = lumped::run_sweep(halfspace, range, 1);
    const auto threaded = lumped::run_sweep(halfspace, range, 2);
    ASSERT_EQ(serial.size(), threaded.size());
    for (std::size_t i = 0; i < serial.size(); ++i) {
      SCOPED_TRACE(i);
      EXPECT_TRUE(serial[i].error.empty()) << serial[i].error;
      expect_same_point(serial[i], threaded[i]);
    }
    EXPECT_NE(serial.front().scalars[1], serial.back().scalars[1]);
  }
}

TEST(Sweep, ValuesOutsideTheRangeAreRowErrorsAndEmptyValuesNoRows) {
  const cases::Case base = sphere();
  const auto rows = lumped::run_sweep(base, lumped::SweepVariable::friction, {0.2, -1.0, NAN}, 2);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_TRUE(rows[0].error.empty());
  EXPECT_FALSE(rows[0].scalars.empty());
  EXPECT_NE(rows[1].error.find("< 0"), std::string::npos) << rows[1].error;
  EXPECT_NE(rows[2].error.find("not finite"), std::string::npos) << rows[2].error;
  EXPECT_TRUE(lumped::run_sweep(base, lumped::SweepVariable::psi1, {}, 4).empty());
}

// The progress callback: for Lai's model (no checks inside its solve) it counts whole points,
// 1, 2, ..., one call at a time (3 threads); a stop asked from it after the second point of a
// one-thread sweep leaves exactly two rows solved, the rest empty (neither scalars nor error).
// For the half-space model it also counts the share of the point being solved: non-decreasing
// values in steps of at least 0.01, fractions between the whole points, ending at the count. (A
// stop during a point, which ends it inside the solve, is tested through the command:
// Cli.InterruptedSweepEndsTheHalfSpacePointBeingSolved.)
TEST(Sweep, ReportsProgressAndStopsWhenAsked) {
  const cases::Case base = sphere();
  const lumped::SweepRange range = psi1_range(0.5, 6, 12);
  std::vector<double> counts;
  lumped::run_sweep(base, range, 3, nullptr, [&counts](double done) { counts.push_back(done); });
  ASSERT_EQ(counts.size(), 12u);
  for (int i = 0; i < 12; ++i) EXPECT_EQ(counts[std::size_t(i)], i + 1);

  std::atomic<bool> stop{false};
  const auto rows = lumped::run_sweep(base, range, 1, &stop, [&stop](double done) {
    if (done == 2) stop = true;
  });
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].scalars.empty(), i >= 2) << i;
    EXPECT_TRUE(rows[i].error.empty()) << i << ": " << rows[i].error;
  }

  cases::Case halfspace = lumped::case_with_model(base, "halfspace");
  halfspace.lumped.cells = 8;
  std::vector<double> shares;
  const auto solved = lumped::run_sweep(halfspace, psi1_range(1, 2, 2), 1, nullptr,
                                        [&shares](double done) { shares.push_back(done); });
  ASSERT_TRUE(solved[0].error.empty() && solved[1].error.empty());
  ASSERT_GE(shares.size(), 20u);
  EXPECT_EQ(shares.back(), 2.0);
  int whole = 0;
  for (std::size_t i = 0; i < shares.size(); ++i) {
    whole += shares[i] == std::floor(shares[i]);
    if (i > 0) {
      EXPECT_GE(shares[i] - shares[i - 1], 0.0099) << i;
    }
  }
  EXPECT_EQ(whole, 2);  // 1 and 2; the rest are shares of a point being solved
}

// --models: every lumped.model and halfspace-beta0 are accepted; an unknown, empty or repeated
// name is refused naming it and listing the known names.
TEST(SweepModels, ListsAreParsedAndUnknownNamesRefusedWithTheList) {
  EXPECT_EQ(lumped::parse_model_list("lai,mdr,halfspace-beta0"),
            (std::vector<std::string>{"lai", "mdr", "halfspace-beta0"}));
  EXPECT_EQ(lumped::parse_model_list("halfspace"), std::vector<std::string>{"halfspace"});
  const auto& names = lumped::sweep_model_names();
  EXPECT_EQ(names.size(), cases::lumped_model_names().size() + 1);
  for (const char* bad : {"lai,lia", "lai,,mdr", "", "lai,"}) {
    SCOPED_TRACE(bad);
    try {
      lumped::parse_model_list(bad);
      ADD_FAILURE() << "accepted";
    } catch (const std::invalid_argument& error) {
      const std::string message = error.what();
      EXPECT_NE(message.find("unknown model"), std::string::npos) << message;
      for (const std::string& name : names)
        EXPECT_NE(message.find(name), std::string::npos) << name << " in " << message;
    }
  }
  EXPECT_THROW(lumped::parse_model_list("lai,mdr,lai"), std::invalid_argument);
  try {
    lumped::case_with_model(sphere(), "hertz");
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("halfspace-beta0"), std::string::npos);
  }
}

// case_with_model sets the model (halfspace-beta0: halfspace without the Dundurs coupling),
// drops the options of other models and validates the case again (a rigid-body law without
// lumped.restitution is refused naming that key, as in a case file).
TEST(SweepModels, CaseWithModelSetsAndValidatesTheModel) {
  const cases::Case base = sphere();
  const cases::Case beta0 = lumped::case_with_model(base, "halfspace-beta0");
  EXPECT_EQ(beta0.lumped.model, "halfspace");
  EXPECT_FALSE(beta0.lumped.dundurs_coupling);
  const cases::Case coupled = lumped::case_with_model(beta0, "halfspace");
  EXPECT_TRUE(coupled.lumped.dundurs_coupling);
  EXPECT_EQ(lumped::model_name(beta0), "halfspace-beta0");
  EXPECT_EQ(lumped::model_name(coupled), "halfspace");
  EXPECT_EQ(lumped::model_name(base), "lai");
  // From the half-space case with dundurs_coupling to the MDR bed: the option dropped, accepted
  // (the parser refuses dundurs_coupling beside another model).
  ASSERT_TRUE(beta0.raw["lumped"].contains("dundurs_coupling"));
  const cases::Case mdr = lumped::case_with_model(beta0, "mdr");
  EXPECT_EQ(mdr.lumped.model, "mdr");
  EXPECT_FALSE(mdr.raw["lumped"].contains("dundurs_coupling"));
  try {
    lumped::case_with_model(base, "newton");
    ADD_FAILURE() << "accepted";
  } catch (const cases::CaseError& error) {
    EXPECT_EQ(error.key(), "lumped.restitution") << error.what();
  }
}

// Two models in one sweep.csv: the header ends with the model column, one block of rows per model
// in the order given, each row equal (bit for bit, %.10g) to that model's own sweep.
TEST(SweepModels, SweepCsvHasOneBlockPerModelNamedInTheLastColumn) {
  const cases::Case base = sphere();
  lumped::SweepRange range;
  range.variable = lumped::SweepVariable::incidence_angle;
  range.start = 0.05;
  range.stop = 1.2;
  range.count = 5;
  std::vector<lumped::ModelSweep> sweeps;
  for (const char* model : {"lai", "mdr"})
    sweeps.push_back({model, lumped::run_sweep(lumped::case_with_model(base, model), range, 2)});
  const std::string csv = lumped::sweep_csv(range, sweeps);
  std::stringstream in(csv);
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header.rfind("sweep_incidence_angle_rad,psi1,psi2,", 0), 0u) << header;
  EXPECT_EQ(header.substr(header.size() - std::string(",phases,error,model").size()),
            ",phases,error,model");
  std::vector<std::string> models;
  while (std::getline(in, line)) models.push_back(line.substr(line.rfind(',') + 1));
  EXPECT_EQ(models, (std::vector<std::string>{"lai", "lai", "lai", "lai", "lai", "mdr", "mdr",
                                              "mdr", "mdr", "mdr"}));
  // The models differ (MDR has partial slip), and one model's block is its own sweep.csv.
  EXPECT_NE(sweeps[0].rows[1].scalars[1], sweeps[1].rows[1].scalars[1]);
  const std::string lai_only = lumped::sweep_csv(range, {sweeps[0]});
  EXPECT_EQ(csv.rfind(lai_only, 0), 0u);
}
