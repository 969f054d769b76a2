// The case description: one impact of a body on a rigid plane, read from a JSON file.
// Both solvers (lumped and FEM) read this one structure. All quantities SI.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cases/lumped_models.h"

namespace rebound::cases {

enum class Shape { sphere, capsule, disc, shell, hoop, custom };

const char* to_string(Shape shape);

struct Body {
  Shape shape = Shape::sphere;
  double radius = 0;     // m; sphere/disc/shell/hoop radius, capsule radius of cylinder and caps,
                         // custom: radius of curvature of the surface at P
  double length = 0;     // m; capsule only: cylinder length between cap centres
  double thickness = 0;  // m; disc: axial thickness; shell: wall thickness; hoop: wire diameter
  // custom only:
  double mass = 0;                // kg
  double radius_of_gyration = 0;  // m, central, about b
  double contact_offset = 0;      // m, |PG|
};

// The FE body's constitutive model (material.model): Hooke's law, J2 (von Mises) perfect
// plasticity with yield stress material.yield_stress (fem/materials/elastic_plastic.h), or the
// standard linear solid with relaxation strength material.relaxation_strength and time
// material.relaxation_time (fem/materials/viscoelastic.h). The lumped and half-space models read
// the elastic constants only.
enum class MaterialModel { elastic, elastic_plastic, viscoelastic };

const char* to_string(MaterialModel model);

struct Material {
  double young_modulus = 0;  // Pa
  double poisson_ratio = 0;
  double density = 0;  // kg/m^3
  // Pa, optional: when given, a Hertz peak pressure beyond the onset of yield (1.6 Y) is warned
  // about (cases/warnings.h); required by lumped.normal_law "thornton", whose limiting contact
  // pressure is p_y = 1.6 Y (Thornton 1997), the only plastic law; and by material.model
  // "elastic-plastic", the FE body's von Mises yield stress.
  std::optional<double> yield_stress = std::nullopt;
  // material.model "viscoelastic" only: the standard linear solid's relaxation strength g > 0
  // (its glassy modulus is (1 + g) E, E the relaxed one) and relaxation time tau > 0, s.
  std::optional<double> relaxation_strength = std::nullopt, relaxation_time = std::nullopt;
  MaterialModel model = MaterialModel::elastic;  // last: {E, nu, rho[, Y]} initialisations stay
};

// What the body strikes: a rigid plane (the default), an elastic half-space (every model; the FEM
// meshes it as a block, fem.block_size), a rigid spherical socket around a sphere
// (fem_target_problem() says what the FEM takes) or a second free solid sphere (every model; the
// FEM takes an elastic sphere as the body). The half-space is infinitely massive: only its elastic
// constants enter, through cases::contact_pair() (cases/derived.h); its density is optional and
// informative. The socket (radius R1 > the ball's body.radius R2) is fixed: rigid (the pair's E* is
// the ball's) or, with target.material, elastic (Wang & Gao 2023's steel socket: the pair's E*; the
// FEM meshes it as a spherical shell of outer radius outer_radius, held at its outer surface,
// fem/targets/elastic_socket.h); its geometry is cases::socket_geometry() (cases/socket.h;
// docs/THEORY.md §7). The
// sphere (radius R2 = radius, material E, nu and a required density) is at rest before the impact
// with its centre at (0, -R2, 0): the pair is one equivalent body on a rigid plane (cases::derive;
// Johnson 1985 ch. 11, Stronge 2000; docs/THEORY.md §2), and the target's own rebound follows
// from the impulse (lumped/summary.h). The elastic plate (the FEM only: no lumped or half-space
// model has its flexure; require_lumped_target) is the square [-L, L] x [-h, 0] x [-L, L] of
// thickness h and half-width L under P, its four edge faces free or clamped, of its own material
// with its density (fem/targets/elastic_plate.h; Zener 1941's plate when L is large).
enum class TargetType { rigid_plane, elastic_halfspace, spherical_socket, sphere, elastic_plate };

const char* to_string(TargetType type);

// How an elastic plate's four edge faces (|x| = L, |z| = L) are held.
enum class PlateEdge { free, clamped };
const char* to_string(PlateEdge edge);

struct Target {
  TargetType type = TargetType::rigid_plane;
  // Pa: elastic_halfspace, sphere, elastic_plate and an elastic spherical_socket (0: rigid)
  double young_modulus = 0;
  double poisson_ratio = 0;  // the same
  // kg/m^3: elastic_halfspace, optional; sphere, plate and elastic socket, required
  std::optional<double> density;
  double radius = 0;                 // m: spherical_socket, the socket's radius R1; sphere, its R2
  double outer_radius = 0;           // m: an elastic spherical_socket's outer radius (> R1)
  double thickness = 0;              // m: elastic_plate, h
  double half_width = 0;             // m: elastic_plate, L
  PlateEdge edge = PlateEdge::free;  // elastic_plate
  // The target does not deform (the rigid plane, a socket without material): E* and G* are the
  // body's.
  bool rigid() const {
    return type == TargetType::rigid_plane ||
           (type == TargetType::spherical_socket && young_modulus == 0);
  }
  bool socket() const { return type == TargetType::spherical_socket; }
  // The target is a free body that moves after the impact (the sphere).
  bool moves() const { return type == TargetType::sphere; }
};

struct Contact {
  double friction = 0;  // Coulomb coefficient mu
};

// Velocity of the contact point P at first touch, in the (t, n) frame, and the spin.
struct Impact {
  double theta = 0;             // rad, angle between PG and n (Lai 1999, Fig. 3.2)
  double normal_speed = 0;      // m/s, approach speed of P (> 0); v_n = -normal_speed
  double tangential_speed = 0;  // m/s, v_t >= 0
  double spin = 0;              // rad/s about b = t x n
  std::string velocity_form;    // which form the file used: "speed", "components", "psi1"
};

// Smallest lumped.restitution that restitution_calibration "exact" accepts for the viscous normal
// laws (hunt-crossley, lankarani-nikravesh, flores; lumped/normal_laws.h): e -> 0 needs an
// unbounded damping (D -> 1/e) and a contact that never ends (28 Hertz durations at e = 0.001,
// the body creeping out at the speed e).
constexpr double kMinimumCalibratedRestitution = 1e-3;

// lumped.restitution given as a table in Bagrejev's energy-flux density Phi = m_w v_w^2/(2 r_w^3)
// (Michalczyk 2008, sec. 3-4; docs/THEORY.md sec. 8): the mean R0(Phi) and, when `std` is given,
// the deviation sigma(Phi) of a normal distribution cut to [0, 1] (eq. 4.1), both piecewise
// linear between the nodes and held at the end nodes' values beyond them (with a warning,
// cases/warnings.h). Without `std` (or with every std 0) R = R0(Phi) is deterministic.
struct RestitutionTable {
  std::vector<double> flux_density;  // Phi at the nodes, J/m^3, >= 0 and strictly increasing
  std::vector<double> mean;          // R0 at the nodes, in [0, 1]
  std::vector<double> sigma;         // sigma at the nodes, >= 0; empty: deterministic
  // True when some node has sigma > 0 (each impact then draws its R).
  bool random() const {
    for (const double s : sigma)
      if (s > 0) return true;
    return false;
  }
};

// Options of the lumped models (owned by the lumped module; parsed and range-checked here).
struct LumpedOptions {
  std::string model = "lai";
  std::string normal_law = "hertz";
  std::optional<double> lambda;       // override of the geometry-derived lambda
  std::optional<double> theta;        // override of the geometry-derived theta, rad
  std::optional<double> restitution;  // prescribed coefficient (e, c, d or c_r by model/law)
  // lumped.restitution as a table in Phi instead of a number (then `restitution` is empty); the
  // coefficient of an impact follows from the case's Phi (lumped/restitution_table.h).
  std::optional<RestitutionTable> restitution_table;
  // lumped.seed: the seed of the random restitution's draws (a random restitution_table only);
  // `rebound sweep --seed S` overrides it.
  std::uint64_t seed = 0;
  // model "lai" with a dissipative normal_law: "exact" (the damping for which the frictionless
  // normal impact achieves e_N = restitution) or "published" (the law's closed form)
  std::string restitution_calibration = "exact";
  // normal_law "liu" and "wang-gao" (a spherical socket): Steuermann's polynomial index n
  // (Wang & Gao 2023, eqs. 7-11; n = 2 is closest to their FEM)
  int polynomial_index = 2;
  // normal_law "viscoelastic": Brilliantov et al.'s dissipative constant A >= 0, s (F = (4/3) E*
  // sqrt(R) [delta^{3/2} + (3/2) A delta^{1/2} delta']); required by that law, refused by others
  std::optional<double> dissipative_constant;
  std::optional<double> impulse_ratio;  // Brach's tangential/normal impulse ratio
  double relative_tolerance = 1e-8;     // integrator rtol
  double euler_step = 1e-2;             // non-dimensional step of the uncoupled-euler mode
  int frames = 40;                      // VTK frames written by `rebound lumped`
  // model "mdr": springs of the bed across the largest contact half-width (docs/LUMPED.md)
  int springs = 200;
  // model "halfspace" (docs/HALFSPACE.md): grid cells across the largest Hertz contact diameter,
  // time steps per Hertz duration, and the normal-tangential coupling of an elastic body on the
  // rigid plane (Dundurs' beta from nu; false: beta = 0, as Maw and the MDR assume)
  int cells = 24;
  int time_steps = 100;
  bool dundurs_coupling = true;
};

// Options of the FEM (owned by the meshes/fem modules; parsed and range-checked here).
struct FemOptions {
  int degree = 2;
  int refinement = 1;               // global refinement level of the coarse mesh
  double contact_resolution = 3.0;  // element size inside a_max <= a_max / contact_resolution
  double cfl = 0.9;
  std::optional<double> end_time;  // s
  int frames = 50;
  // target.type "elastic_halfspace": the half-width and depth of the block the FEM meshes for the
  // half-space, m; empty: the default of fem/targets/elastic_halfspace.h (no reflection from its
  // faces returns to the contact within the Hertz contact duration).
  std::optional<double> block_size;
};

struct Case {
  std::string name;
  std::string description;
  std::string source;  // file the case was read from ("<string>" when parsed from text)
  Body body;
  Material material;
  Target target;
  Contact contact;
  Impact impact;
  LumpedOptions lumped;
  FemOptions fem;
  nlohmann::json raw;  // the document as read, for provenance in outputs
};

// One problem of a case description: the key path (e.g. "material.density", "<document>",
// "<file>") and what is wrong with it, stating the bad value and what was expected.
struct Problem {
  std::string key;
  std::string message;
};

// A rejected case description: every problem found in it (at least one). what() has one line
// per problem, "FILE: KEY MESSAGE"; key() is the first problem's key.
class CaseError : public std::runtime_error {
 public:
  CaseError(const std::string& file, const std::string& key, const std::string& problem);
  CaseError(const std::string& file, std::vector<Problem> problems);
  const std::string& file() const { return file_; }
  const std::string& key() const { return problems_.front().key; }
  const std::vector<Problem>& problems() const { return problems_; }

 private:
  std::string file_;
  std::vector<Problem> problems_;
};

// Limits of what a case file may be (each rejection says so).
constexpr std::size_t kMaxNameLength = 100;       // characters of "name" (a folder name)
constexpr int kMaxNesting = 64;                   // depth of nested objects/arrays
constexpr std::size_t kMaxFileBytes = 16u << 20;  // 16 MiB
constexpr double kMaxCfl = 0.95;                  // fem.cfl (see cases/README.md)
constexpr double kMaxSeed = 9007199254740991.0;   // lumped.seed: 2^53 - 1 (exact in a double)
constexpr std::size_t kMaxTableNodes = 10000;     // nodes of lumped.restitution's table

// Read and validate a case file (JSON; // and /* */ comments allowed). Throws CaseError listing
// every problem found (an unreadable file, invalid JSON or a too deeply nested document stop at
// that problem). Beyond the keys, the case must give finite derived quantities, a capsule must
// touch the plane with its cap, and the FEM must be able to mesh the contact zone (what `rebound
// mesh`/`fem` would reject is rejected here, for every command).
Case load_case(const std::string& path);
// True when the file is a JSON Schema (an object with "$schema" and "properties" or "$defs"),
// such as cases/case.schema.json beside the shipped cases: `rebound check cases/*.json` skips it.
bool is_json_schema_file(const std::string& path);
// Validate a case given as JSON text; `source` names it in messages.
Case parse_case(const std::string& text, const std::string& source = "<string>");
Case parse_case(const nlohmann::json& document, const std::string& source);

// Why the FEM cannot run the case, the value and what the FEM supports; empty when it can. The
// FEM models the rigid plane, the spherical socket (whose conformal contact zone,
// cases::socket_overlap_radius, must not exceed cases::socket_fem_contact_radius_limit; an elastic
// one's wall R_o - R1 must hold 3 of it, and an elastic ball strikes it) and a target sphere, an
// elastic half-space (a block, which needs target.material.density) or an elastic plate, each of
// its own elastic material, struck by an elastic sphere. The FEM commands (fem, pair, refine,
// sweep --fem, mesh) refuse another case up front with require_fem_target().
std::string fem_target_problem(const Case& c);
// Throws CaseError(c.source, KEY, fem_target_problem(c)) when that is not empty: KEY names what to
// change (target.radius or target.outer_radius for a socket; body.shape, material.model or
// target.material.density for a deformable target).
void require_fem_target(const Case& c);

// Why the lumped and half-space models cannot run the case: target.type "elastic_plate", whose
// flexure none of them has; empty when they can. require_lumped_target throws CaseError(c.source,
// "target.type", that) when it is not empty (lumped::solve and the commands that pair the models).
std::string lumped_target_problem(const Case& c);
void require_lumped_target(const Case& c);

// Approach velocity of P in (t, n): (v_t, v_n) with v_n < 0.
double incidence_angle(const Impact& impact);  // alpha = atan(v_t / -v_n)
double approach_speed(const Impact& impact);   // |v_P|

// Maw's non-dimensional incidence scale: Psi = 2(1-nu)/(mu(2-nu)) tan(alpha) (Lai 1999, eq. 5.63).
// nu is the contact's Poisson ratio: the body's on a rigid plane, the pair's effective one
// (ContactPair::poisson_ratio, cases/derived.h) on an elastic target.
double psi_scale(double poisson_ratio, double friction);

}  // namespace rebound::cases
