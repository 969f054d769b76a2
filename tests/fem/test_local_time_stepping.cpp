// The leapfrog local time stepping's recursion (fem/local_time_stepping.h) on a 1-D bar of
// linear elements with lumped masses (unit density, modulus and section), through a small
// operator that applies the bar's element stiffnesses by groups, as the FEM's matrix-free
// operator applies its cells: K_G against independent formulas. The solver-level tests (free
// flight, one level = the global leapfrog) are in test_fem.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "fem/elastic_operator.h"
#include "fem/local_time_stepping.h"

namespace {

using rebound::fem::ElasticOperator;
using rebound::fem::LocalTimeStepping;
using VectorType = ElasticOperator::VectorType;

// The bar's stiffness by element groups (one dof per node; the recursion does not care how
// many components a node has).
class BarStiffness final : public ElasticOperator {
 public:
  BarStiffness(std::vector<double> lengths, std::vector<unsigned int> element_group)
      : lengths_(std::move(lengths)), group_(std::move(element_group)) {
    const unsigned int groups = *std::max_element(group_.begin(), group_.end()) + 1;
    support_.assign(groups, {});
    for (unsigned int e = 0; e < lengths_.size(); ++e)
      support_[group_[e]].insert(support_[group_[e]].end(), {e, e + 1});
    for (auto& s : support_) {
      std::sort(s.begin(), s.end());
      s.erase(std::unique(s.begin(), s.end()), s.end());
    }
  }
  void apply(VectorType& force, const VectorType& u) const override {
    apply_groups(force, u, std::vector<double>(groups(), 1.0), nullptr);
  }
  void apply_groups(VectorType& force, const VectorType& u, const std::vector<double>& weight,
                    double* energy) const override {
    force = 0;
    add(force, u, weight);
    if (energy != nullptr) throw std::logic_error("BarStiffness: no energy");
  }
  void apply_groups_on_support(VectorType& force, const VectorType& u,
                               const std::vector<double>& weight) const override {
    for (unsigned int g = 0; g < groups(); ++g)
      if (weight[g] != 0)
        for (const unsigned int i : support_[g]) force.local_element(i) = 0;
    add(force, u, weight);
  }
  const std::vector<unsigned int>& group_support(unsigned int g) const override {
    return support_.at(g);
  }
  unsigned int groups() const override { return (unsigned int)support_.size(); }
  void initialize_dof_vector(VectorType& v) const override { v.reinit(lengths_.size() + 1); }
  double max_stress_error(const VectorType&, const dealii::Tensor<2, 3>&) const override {
    throw std::logic_error("BarStiffness: no stresses");
  }
  unsigned int lanes() const override { return 1; }

 private:
  void add(VectorType& force, const VectorType& u, const std::vector<double>& weight) const {
    for (unsigned int e = 0; e < lengths_.size(); ++e) {
      if (weight[group_[e]] == 0) continue;
      const double f =
          weight[group_[e]] * (u.local_element(e) - u.local_element(e + 1)) / lengths_[e];
      force.local_element(e) += f;
      force.local_element(e + 1) -= f;
    }
  }
  std::vector<double> lengths_;
  std::vector<unsigned int> group_;
  std::vector<std::vector<unsigned int>> support_;
};

// A graded bar: `fine` elements of length 1 (level 0), then `coarse` of each length 2^l (level
// l = 1 .. levels - 1); the fine step delta is cfl times the global leapfrog's limit.
struct Bar {
  std::vector<double> lengths;
  std::vector<int> element_level;
  std::vector<int> node_level;
  VectorType mass;
  double delta = 0;
  int top = 0, fine = 0;
  std::unique_ptr<BarStiffness> stiffness;
  std::unique_ptr<LocalTimeStepping> scheme;

  Bar(int levels, double cfl, double nu, int fine_elements = 12, int coarse = 6)
      : fine(fine_elements) {
    for (int e = 0; e < fine; ++e) lengths.push_back(1), element_level.push_back(0);
    for (int l = 1; l < levels; ++l)
      for (int e = 0; e < coarse; ++e)
        lengths.push_back(std::ldexp(1.0, l)), element_level.push_back(l);
    const unsigned int n = (unsigned int)lengths.size() + 1;
    top = levels - 1;
    mass.reinit(n);
    node_level.assign(n, top);
    for (unsigned int e = 0; e < lengths.size(); ++e) {
      mass.local_element(e) += lengths[e] / 2;
      mass.local_element(e + 1) += lengths[e] / 2;
      node_level[e] = std::min(node_level[e], element_level[e]);
      node_level[e + 1] = std::min(node_level[e + 1], element_level[e]);
    }
    // An element's group: the set of its nodes' levels as a bit mask (as the solver's cells).
    std::vector<unsigned int> masks, group(lengths.size());
    for (unsigned int e = 0; e < lengths.size(); ++e)
      masks.push_back((1u << node_level[e]) | (1u << node_level[e + 1]));
    std::vector<unsigned int> distinct = masks;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    for (unsigned int e = 0; e < lengths.size(); ++e)
      group[e] =
          unsigned(std::lower_bound(distinct.begin(), distinct.end(), masks[e]) - distinct.begin());
    stiffness = std::make_unique<BarStiffness>(lengths, group);
    // lambda_max(M^-1 K) by power iteration (the bar is small: many iterations).
    VectorType x(n), y(n);
    for (unsigned int i = 0; i < n; ++i) x.local_element(i) = (i % 2 ? 1.0 : -1.0) * (1 + 0.1 * i);
    double lambda = 0;
    for (int k = 0; k < 2000; ++k) {
      stiffness->apply(y, x);
      double norm = 0;
      for (unsigned int i = 0; i < n; ++i) {
        y.local_element(i) /= mass.local_element(i);
        norm = std::max(norm, std::abs(y.local_element(i)));
      }
      lambda = norm;
      for (unsigned int i = 0; i < n; ++i) x.local_element(i) = y.local_element(i) / norm;
    }
    delta = cfl * 2 / std::sqrt(lambda);
    LocalTimeStepping::Levels l;
    l.dofs.assign(std::size_t(top) + 1, {});
    l.group_weights.assign(std::size_t(top) + 1, std::vector<double>(distinct.size(), 0.0));
    for (unsigned int i = 0; i < n; ++i) l.dofs[std::size_t(node_level[i])].push_back(i);
    for (int k = 0; k <= top; ++k)
      for (std::size_t g = 0; g < distinct.size(); ++g)
        if (distinct[g] & (1u << k)) l.group_weights[std::size_t(k)][g] = 1;
    scheme = std::make_unique<LocalTimeStepping>(*stiffness, mass, std::move(l), delta, nu);
  }
  unsigned int size() const { return mass.locally_owned_size(); }
  std::vector<double> kg(const std::vector<double>& u) {
    VectorType in(size()), out(size());
    for (unsigned int i = 0; i < size(); ++i) in.local_element(i) = u[i];
    scheme->apply(out, in);
    return std::vector<double>(out.begin(), out.end());
  }
  std::vector<double> k(const std::vector<double>& u) const {
    VectorType in(size()), out(size());
    for (unsigned int i = 0; i < size(); ++i) in.local_element(i) = u[i];
    stiffness->apply(out, in);
    return std::vector<double>(out.begin(), out.end());
  }
  // The independent reference of a two-level coarse step on the fine dofs: -(2 / H^2) M (y_2 -
  // u), y the global leapfrog of step delta from rest at u, two steps, with every level-1 dof
  // and the dofs `held` clamped at u.
  std::vector<double> clamped_two_steps(const std::vector<double>& u,
                                        const std::vector<unsigned int>& held = {}) const {
    const unsigned int n = size();
    const auto clamped = [&](std::vector<double> y) {
      for (unsigned int i = 0; i < n; ++i)
        if (node_level[i] > 0) y[i] = u[i];
      for (const unsigned int i : held) y[i] = u[i];
      return y;
    };
    std::vector<double> y1(n), force(n);
    const std::vector<double> f0 = k(u);
    for (unsigned int i = 0; i < n; ++i)
      y1[i] = u[i] - 0.5 * delta * delta * f0[i] / mass.local_element(i);
    y1 = clamped(y1);
    const std::vector<double> f1 = k(y1);
    const double h = 2 * delta;
    for (unsigned int i = 0; i < n; ++i) {
      const double y2 = 2 * y1[i] - u[i] - delta * delta * f1[i] / mass.local_element(i);
      force[i] = -2 / (h * h) * mass.local_element(i) * (y2 - u[i]);
    }
    return force;
  }
};

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (const double x : v) m = std::max(m, std::abs(x));
  return m;
}

std::vector<double> unit(unsigned int n, unsigned int i) {
  std::vector<double> e(n, 0.0);
  e[i] = 1;
  return e;
}

}  // namespace

// With one level the modified stiffness is the stiffness: K_G u = K u (the scheme is the global
// leapfrog), to round-off.
TEST(LtsLeapfrogRecursion, OneLevelIsTheStiffness) {
  Bar bar(1, 0.9, 0.1);
  std::vector<double> u(bar.size());
  for (unsigned int i = 0; i < u.size(); ++i) u[i] = std::sin(0.7 * i) + 0.1 * i;
  const std::vector<double> a = bar.kg(u), b = bar.k(u);
  for (unsigned int i = 0; i < u.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-13 * max_abs(b)) << i;
}

// K_G is symmetric (so the scheme conserves 1/2 v- M v+ + 1/2 u.K_G u exactly) and has the
// rigid translation in its kernel (momentum), on three levels with the damping of the FEM;
// tolerance: round-off of the recursion's sums (1e-13 of the largest entry).
TEST(LtsLeapfrogRecursion, ModifiedStiffnessIsSymmetricAndKeepsTranslations) {
  Bar bar(3, 0.9, 0.1);
  const unsigned int n = bar.size();
  std::vector<std::vector<double>> column(n);
  double scale = 0;
  for (unsigned int j = 0; j < n; ++j) {
    column[j] = bar.kg(unit(n, j));
    scale = std::max(scale, max_abs(column[j]));
  }
  for (unsigned int i = 0; i < n; ++i)
    for (unsigned int j = 0; j < i; ++j)
      EXPECT_NEAR(column[j][i], column[i][j], 1e-13 * scale) << i << ", " << j;
  EXPECT_LT(max_abs(bar.kg(std::vector<double>(n, 1.0))), 1e-13 * scale);
}

// K_G -> K at second order in the step: on the bar's first free-free mode cos(pi x / L) the
// relative difference of u.K_G u from u.K u falls by 4 (+- 10 %) when delta halves.
TEST(LtsLeapfrogRecursion, ModifiedStiffnessIsConsistentAtSecondOrder) {
  std::vector<double> error;
  for (const double cfl : {0.4, 0.2}) {
    Bar bar(3, cfl, 0.1);
    std::vector<double> u(bar.size());
    double x = 0, length = 0;
    for (const double l : bar.lengths) length += l;
    for (unsigned int i = 0; i < u.size(); ++i) {
      u[i] = std::cos(M_PI * x / length);
      if (i < bar.lengths.size()) x += bar.lengths[i];
    }
    const std::vector<double> a = bar.kg(u), b = bar.k(u);
    double uka = 0, ukb = 0;
    for (unsigned int i = 0; i < u.size(); ++i) uka += u[i] * a[i], ukb += u[i] * b[i];
    error.push_back(std::abs(uka / ukb - 1));
  }
  EXPECT_GT(error[0], 1e-8);  // the test would pass vacuously on K itself
  EXPECT_NEAR(error[0] / error[1], 4.0, 0.4);
}

// The interface condition of the scheme: inside a coarse step the fine dofs see the coarse dofs
// at their values of the synchronisation time. Two levels, no damping: on the fine dofs K_G u is
// -(2 / H^2) M (y_2 - u) with y the global leapfrog of step delta from rest at u, two steps, with
// every level-1 dof clamped at u; on a level-1 dof no fine element reaches, K_G u = K u.
TEST(LtsLeapfrogRecursion, FineStepsSeeTheCoarseDofsAtTheSynchronisationTime) {
  Bar bar(2, 0.9, 0.0);
  const unsigned int n = bar.size();
  std::vector<double> u(n);
  for (unsigned int i = 0; i < n; ++i) u[i] = std::cos(0.9 * i) + 0.02 * i * i;
  const std::vector<double> kg = bar.kg(u), k = bar.k(u), expected = bar.clamped_two_steps(u);
  unsigned int fine = 0, far = 0;
  for (unsigned int i = 0; i < n; ++i) {
    if (bar.node_level[i] == 0) {
      EXPECT_NEAR(kg[i], expected[i], 1e-12 * max_abs(k)) << "fine dof " << i;
      ++fine;
    } else if (int(i) > bar.fine + 1) {  // out of the fine elements' reach (nodes 0 .. fine + 1)
      EXPECT_NEAR(kg[i], k[i], 1e-12 * max_abs(k)) << "coarse dof " << i;
      ++far;
    }
  }
  EXPECT_GT(fine, 10u);
  EXPECT_GT(far, 3u);
}

// A held dof keeps its value inside the steps: the other dofs then see it as the clamped coarse
// dofs above (here the fine end node 0, two levels, no damping), and the forces still sum to
// zero (momentum, whatever is held).
TEST(LtsLeapfrogRecursion, HeldDofsStayAndKeepMomentum) {
  Bar bar(2, 0.9, 0.0);
  const unsigned int n = bar.size();
  std::vector<double> u(n);
  for (unsigned int i = 0; i < n; ++i) u[i] = std::sin(1.3 * i) + 0.05 * i;
  bar.scheme->hold({0});
  const std::vector<double> kg = bar.kg(u), k = bar.k(u);
  double sum = 0;
  for (const double f : kg) sum += f;
  EXPECT_LT(std::abs(sum), 1e-13 * max_abs(kg));
  const std::vector<double> expected = bar.clamped_two_steps(u, {0});
  for (unsigned int i = 1; i < n; ++i)
    if (bar.node_level[i] == 0) {
      EXPECT_NEAR(kg[i], expected[i], 1e-12 * max_abs(k)) << "fine dof " << i;
    }
  bar.scheme->hold({});
  EXPECT_NE(bar.kg(u)[1], kg[1]);  // the hold changed the neighbour's force
}

// The damping, checked where it acts: with two levels the recursion is K_G = K - (a delta^2 / 4)
// K Pi_0 M^-1 K, a = 2 - 1/d^2, d = 1 + nu / 4 (fem/local_time_stepping.h, expanded once), with
// Pi_0 keeping the level-0 dofs that are not held; a enters at order delta^2 only, so symmetry and
// consistency cannot see it. nu = 0.1 (the FEM's), without and with node 0 held, every row (the
// held dof's own too), to round-off.
TEST(LtsLeapfrogRecursion, TwoLevelsAreTheDampedClosedForm) {
  Bar bar(2, 0.9, 0.1);
  const unsigned int n = bar.size();
  std::vector<double> u(n);
  for (unsigned int i = 0; i < n; ++i) u[i] = std::cos(0.4 * i * i) + 0.1 * i;
  const double d = 1 + 0.1 / 4, a = 2 - 1 / (d * d);
  for (const bool held : {false, true}) {
    bar.scheme->hold(held ? std::vector<unsigned int>{0} : std::vector<unsigned int>{});
    const std::vector<double> ku = bar.k(u);
    std::vector<double> v(n, 0.0);  // Pi_0 M^-1 K u
    for (unsigned int i = 0; i < n; ++i)
      if (bar.node_level[i] == 0 && !(held && i == 0)) v[i] = ku[i] / bar.mass.local_element(i);
    const std::vector<double> kv = bar.k(v), kg = bar.kg(u);
    for (unsigned int i = 0; i < n; ++i)
      EXPECT_NEAR(kg[i], ku[i] - a * bar.delta * bar.delta / 4 * kv[i], 1e-12 * max_abs(ku))
          << (held ? "held, " : "") << "dof " << i;
  }
}
