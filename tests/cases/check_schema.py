#!/usr/bin/env python3
"""cases/case.schema.json against the parser (ctest cases.schema).

Checks that the schema is a valid draft 2020-12 schema; that every shipped cases/*.json and
`rebound init --shape S` output for every shape is valid; that the defaults the schema states
are those init writes; and that known-bad documents are rejected by the schema *and* by
`rebound check` (exit 2), so that the two agree.

Usage: check_schema.py SCHEMA CASES_DIR REBOUND WORK_DIR
"""
import copy
import json
import pathlib
import re
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    sys.exit("check_schema.py: needs python3-jsonschema (apt-get install python3-jsonschema, "
             "or scripts/install-deps.sh)")

SHAPES = ["sphere", "capsule", "disc", "shell", "hoop", "custom"]
# A glass target material with its density (a plate needs it).
GLASS = {"young_modulus": 7e10, "poisson_ratio": 0.22, "density": 2500}


def strip_comments(text):
    """JSON with // and /* */ comments -> JSON (strings, with their escapes, kept as they are)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def main():
    schema_path, cases_dir, rebound, work = sys.argv[1:5]
    work = pathlib.Path(work)
    work.mkdir(parents=True, exist_ok=True)
    schema = json.loads(pathlib.Path(schema_path).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failures = []

    def expect_valid(what, document):
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
        for error in errors:
            failures.append(f"{what}: rejected by the schema at {list(error.path)}: "
                            f"{error.message[:200]}")

    shipped = sorted(p for p in pathlib.Path(cases_dir).glob("*.json")
                     if not p.name.endswith(".schema.json"))
    if len(shipped) < 16:
        failures.append(f"only {len(shipped)} shipped cases in {cases_dir}")
    for path in shipped:
        expect_valid(path.name, json.loads(path.read_text()))

    inits = {}
    for shape in SHAPES:
        run = subprocess.run([rebound, "init", "--shape", shape], capture_output=True, text=True)
        if run.returncode != 0:
            failures.append(f"rebound init --shape {shape}: exit {run.returncode}: {run.stderr}")
            continue
        if "//" not in run.stdout:
            failures.append(f"rebound init --shape {shape}: no comments")
        document = json.loads(strip_comments(run.stdout))
        inits[shape] = document
        expect_valid(f"rebound init --shape {shape}", document)

    # The defaults the schema states are the ones init writes (every default is shown there).
    sphere = inits.get("sphere", {})
    for section in ("lumped", "fem"):
        for key, spec in schema["$defs"][section]["properties"].items():
            if "default" in spec and key in sphere.get(section, {}):
                if sphere[section][key] != spec["default"]:
                    failures.append(f"{section}.{key}: schema default {spec['default']} but "
                                    f"rebound init writes {sphere[section][key]}")
    if sphere.get("lumped", {}).get("model") != "lai":
        failures.append("rebound init --shape sphere: no lumped.model")

    # Known-bad documents: each one problem, rejected by the schema and by rebound check.
    base = json.loads((pathlib.Path(cases_dir) / "sphere-lai-psi2.json").read_text())
    rod = json.loads((pathlib.Path(cases_dir) / "rod-lai-a.json").read_text())
    steel_socket = json.loads(
        (pathlib.Path(cases_dir) / "socket-wang-gao-0.1mm-steel.json").read_text())

    def bad(name, change, start=base):
        document = copy.deepcopy(start)
        change(document)
        return name, document

    def without(section, key):
        return lambda d: d[section].pop(key)

    bad_documents = [
        bad("unknown key", lambda d: d["material"].update(youngs_modulus=1)),
        bad("unknown top-level key", lambda d: d.update(mesh_file="x.msh")),
        bad("missing name", lambda d: d.pop("name")),
        bad("upper-case name", lambda d: d.update(name="Sphere")),
        bad("name of 101 characters", lambda d: d.update(name="a" * 101)),
        bad("missing density", without("material", "density")),
        bad("poisson ratio 0.5", lambda d: d["material"].update(poisson_ratio=0.5)),
        bad("negative friction", lambda d: d["contact"].update(friction=-0.1)),
        bad("elastic target without material",
            lambda d: d.update(target={"type": "elastic_halfspace"})),
        bad("plate without thickness",
            lambda d: d.update(target={"type": "elastic_plate", "half_width": 0.05,
                                       "material": GLASS})),
        bad("plate without density",
            lambda d: d.update(target={"type": "elastic_plate", "thickness": 0.004,
                                       "half_width": 0.05,
                                       "material": {"young_modulus": 7e10, "poisson_ratio": 0.2}})),
        bad("plate with a pinned edge",
            lambda d: d.update(target={"type": "elastic_plate", "thickness": 0.004,
                                       "half_width": 0.05, "edge": "pinned",
                                       "material": GLASS})),
        bad("thickness on a half-space",
            lambda d: d.update(target={"type": "elastic_halfspace", "thickness": 0.004,
                                       "material": GLASS})),
        bad("material on a rigid target",
            lambda d: d.update(target={"type": "rigid_plane",
                                       "material": {"young_modulus": 7e10, "poisson_ratio": 0.2}})),
        bad("elastic target of poisson ratio 0.5",
            lambda d: d.update(target={"type": "elastic_halfspace",
                                       "material": {"young_modulus": 7e10, "poisson_ratio": 0.5}})),
        bad("elastic target of zero modulus",
            lambda d: d.update(target={"type": "elastic_halfspace",
                                       "material": {"young_modulus": 0, "poisson_ratio": 0.2}})),
        bad("unknown target key",
            lambda d: d.update(target={"type": "elastic_halfspace",
                                       "material": {"young_modulus": 7e10, "poisson_ratio": 0.2,
                                                    "shear_modulus": 3e10}})),
        bad("radius and diameter", lambda d: d["body"].update(diameter=0.1)),
        bad("neither radius nor diameter", without("body", "radius")),
        bad("length on a sphere", lambda d: d["body"].update(length=0.1)),
        bad("theta 0.3 on a sphere", lambda d: d["impact"].update(theta=0.3)),
        bad("theta and theta_deg", lambda d: d["impact"].update(theta_deg=0)),
        bad("two velocity forms", lambda d: d["impact"].update(tangential_speed=0.1)),
        bad("normal_speed alone", without("impact", "psi1")),
        bad("incidence_angle 30 rad",
            lambda d: d.update(impact={"speed": 1, "incidence_angle": 30})),
        bad("incidence_angle and incidence_angle_deg",
            lambda d: d.update(impact={"speed": 1, "incidence_angle": 0.1,
                                       "incidence_angle_deg": 5})),
        bad("incidence_angle_deg 90",
            lambda d: d.update(impact={"speed": 1, "incidence_angle_deg": 90})),
        bad("psi1 without friction", lambda d: d["contact"].update(friction=0)),
        bad("speed as a string",
            lambda d: d.update(impact={"speed": "1", "incidence_angle_deg": 10})),
        bad("springs with model lai", lambda d: d["lumped"].update(springs=100)),
        bad("newton without restitution", lambda d: d["lumped"].update(model="newton")),
        bad("impulse_ratio with model newton",
            lambda d: d["lumped"].update(model="newton", restitution=0.5, impulse_ratio=0.2)),
        bad("dissipative law with a rigid model",
            lambda d: d["lumped"].update(model="newton", restitution=0.5,
                                         normal_law="hunt-crossley")),
        bad("restitution_calibration with the hertz law",
            lambda d: d["lumped"].update(restitution_calibration="published")),
        bad("restitution_calibration with a rigid model",
            lambda d: d["lumped"].update(model="newton", restitution=0.5,
                                         restitution_calibration="exact")),
        bad("restitution_calibration not a choice",
            lambda d: d["lumped"].update(normal_law="hunt-crossley", restitution=0.5,
                                         restitution_calibration="closed-form")),
        bad("exact calibration below e = 0.001",
            lambda d: d["lumped"].update(normal_law="flores", restitution=0.0005)),
        bad("restitution table with a mean above 1",
            lambda d: d["lumped"].update(model="newton", restitution={
                "flux_density": [0, 1e5], "mean": [0.9, 1.1]})),
        bad("restitution table with a negative std",
            lambda d: d["lumped"].update(model="newton", restitution={
                "flux_density": [0, 1e5], "mean": [0.9, 0.8], "std": [0.1, -0.1]})),
        bad("restitution table with an unknown key",
            lambda d: d["lumped"].update(model="newton", restitution={
                "flux_density": [0, 1e5], "mean": [0.9, 0.8], "sigma": [0.1, 0.1]})),
        bad("exact calibration of a table below e = 0.001",
            lambda d: d["lumped"].update(normal_law="flores", restitution={
                "flux_density": [0, 1e5], "mean": [0.9, 0.0005]})),
        bad("seed of -1",
            lambda d: d["lumped"].update(model="newton", seed=-1, restitution={
                "flux_density": [0, 1e5], "mean": [0.9, 0.8], "std": [0.1, 0.1]})),
        bad("thornton without material.yield_stress",
            lambda d: d["lumped"].update(normal_law="thornton")),
        bad("thornton with a restitution",
            lambda d: (d["material"].update(yield_stress=2e8),
                       d["lumped"].update(normal_law="thornton", restitution=0.8))),
        bad("elastic-plastic without material.yield_stress",
            lambda d: d["material"].update(model="elastic-plastic")),
        bad("material.model viscoelastic without relaxation_time",
            lambda d: d["material"].update(model="viscoelastic", relaxation_strength=1.0)),
        bad("material.model viscoelastic with relaxation_strength 0",
            lambda d: d["material"].update(model="viscoelastic", relaxation_strength=0,
                                           relaxation_time=1e-6)),
        bad("relaxation_time with the elastic model",
            lambda d: d["material"].update(relaxation_time=1e-6)),
        bad("material.model not a choice",
            lambda d: d["material"].update(model="plastic", yield_stress=2e8)),
        bad("viscoelastic without dissipative_constant",
            lambda d: d["lumped"].update(normal_law="viscoelastic")),
        bad("viscoelastic with a negative dissipative_constant",
            lambda d: d["lumped"].update(normal_law="viscoelastic", dissipative_constant=-1e-6)),
        bad("viscoelastic with restitution_calibration",
            lambda d: d["lumped"].update(normal_law="viscoelastic", dissipative_constant=1e-6,
                                         restitution_calibration="exact")),
        bad("dissipative_constant with another law",
            lambda d: d["lumped"].update(normal_law="hunt-crossley", restitution=0.8,
                                         dissipative_constant=1e-6)),
        bad("brach without impulse ratio",
            lambda d: d["lumped"].update(model="brach", restitution=0.5)),
        bad("frames 2.5", lambda d: d["lumped"].update(frames=2.5)),
        bad("cfl 1", lambda d: d.update(fem={"cfl": 1.0})),
        bad("fem degree 3", lambda d: d.update(fem={"degree": 3})),
        bad("capsule without theta", without("impact", "theta"), rod),
        bad("custom with |PG| > 0 without theta",
            lambda d: (d.update(body={"shape": "custom", "radius": 0.05, "mass": 1,
                                      "radius_of_gyration": 0.02, "contact_offset": 0.01}),
                       d["impact"].pop("theta"))),
        bad("sphere target without radius and material",
            lambda d: d.update(target={"type": "sphere"})),
        bad("sphere target without density",
            lambda d: d.update(target={"type": "sphere", "radius": 0.05,
                                       "material": {"young_modulus": 7e10, "poisson_ratio": 0.3}})),
        bad("sphere target of negative radius",
            lambda d: d.update(target={"type": "sphere", "radius": -0.05,
                                       "material": {"young_modulus": 7e10, "poisson_ratio": 0.3,
                                                    "density": 2700}})),
        bad("elastic socket without outer radius", lambda d: d["target"].pop("outer_radius"),
            steel_socket),
        bad("outer radius on a rigid socket", lambda d: d["target"].pop("material"),
            steel_socket),
        bad("elastic socket without density",
            lambda d: d["target"]["material"].pop("density"), steel_socket),
        bad("radius on an elastic half-space",
            lambda d: d.update(target={"type": "elastic_halfspace", "radius": 0.05,
                                       "material": {"young_modulus": 7e10, "poisson_ratio": 0.3}})),
    ]
    for name, document in bad_documents:
        if validator.is_valid(document):
            failures.append(f"schema accepts a bad document: {name}")
        path = work / "bad.json"
        path.write_text(json.dumps(document))
        run = subprocess.run([rebound, "check", str(path)], capture_output=True, text=True)
        if run.returncode != 2:
            failures.append(f"rebound check exits {run.returncode} (expected 2) for: {name}")

    # And documents in the user's terms that both accept.
    good = [
        bad("clamped plate",
            lambda d: d.update(target={"type": "elastic_plate", "thickness": 0.004,
                                       "half_width": 0.05, "edge": "clamped",
                                       "material": GLASS})),
        bad("degrees", lambda d: d.update(impact={"speed": 1, "incidence_angle_deg": 30})),
        bad("diameter, no theta",
            lambda d: (d["body"].pop("radius"), d["body"].update(diameter=0.1),
                       d["impact"].pop("theta"))),
        bad("rod in degrees", lambda d: (d["impact"].pop("theta"),
                                         d["impact"].update(theta_deg=15.48)), rod),
        bad("with $schema for an editor", lambda d: d.update({"$schema": "case.schema.json"})),
        bad("published calibration below e = 0.001",
            lambda d: d["lumped"].update(normal_law="flores", restitution=0.0005,
                                         restitution_calibration="published")),
        bad("random restitution table with a seed",
            lambda d: d["lumped"].update(model="newton", seed=3, restitution={
                "flux_density": [0, 1e5], "mean": [0.9, 0.8], "std": [0.1, 0.1]})),
        bad("deterministic restitution table of michalczyk's law",
            lambda d: d["lumped"].update(normal_law="michalczyk", restitution={
                "flux_density": [1e4], "mean": [0.7]})),
        bad("thornton with the yield stress",
            lambda d: (d["material"].update(yield_stress=2e8),
                       d["lumped"].update(normal_law="thornton"))),
        bad("elastic-plastic with the yield stress",
            lambda d: d["material"].update(model="elastic-plastic", yield_stress=2e8)),
        bad("material.model viscoelastic with its constants",
            lambda d: d["material"].update(model="viscoelastic", relaxation_strength=1.0,
                                           relaxation_time=1e-6)),
        bad("viscoelastic with its dissipative constant",
            lambda d: d["lumped"].update(normal_law="viscoelastic", dissipative_constant=1e-6)),
        bad("sphere target",
            lambda d: d.update(target={"type": "sphere", "radius": 0.1,
                                       "material": {"young_modulus": 2e11, "poisson_ratio": 0.3,
                                                    "density": 7850}})),
        bad("exact calibration of michalczyk at e = 0.0005",
            lambda d: d["lumped"].update(normal_law="michalczyk", restitution=0.0005,
                                         restitution_calibration="exact")),
    ]
    for name, document in good:
        expect_valid(name, document)
        path = work / "good.json"
        path.write_text(json.dumps(document))
        run = subprocess.run([rebound, "check", str(path)], capture_output=True, text=True)
        if run.returncode != 0:
            failures.append(f"rebound check rejects a good document ({name}): {run.stderr}")

    # Every choice list of the schema is the parser's: rebound check names the accepted values of
    # a key it rejects ('lumped.model is "x"; expected one of "lai" | ...'), and they must be the
    # schema's enum, in the same order.
    choices = [("lumped", "model"), ("lumped", "normal_law"), ("lumped", "restitution_calibration"),
               ("body", "shape"), ("target", "type"), ("material", "model")]
    for section, key in choices:
        where = schema["$defs"] if section in schema["$defs"] else schema["properties"]
        enum = where[section]["properties"][key].get("enum")
        if enum is None:
            failures.append(f"{section}.{key}: no enum in the schema")
            continue
        document = copy.deepcopy(base)
        document.setdefault(section, {})[key] = "no-such-choice"
        path = work / "choice.json"
        path.write_text(json.dumps(document))
        run = subprocess.run([rebound, "check", str(path)], capture_output=True, text=True)
        match = re.search(rf'{section}\.{key} is "no-such-choice"; expected one of ([^\n]*)',
                          run.stderr)
        if run.returncode != 2 or not match:
            failures.append(f"{section}.{key} = \"no-such-choice\": rebound check exits "
                            f"{run.returncode} without naming the choices: {run.stderr[:300]}")
            continue
        accepted = re.findall(r'"([^"]*)"', match.group(1))
        if accepted != enum:
            failures.append(f"{section}.{key}: the schema's enum {enum} but rebound accepts "
                            f"{accepted}")

    for failure in failures:
        print("FAIL:", failure)
    print(f"check_schema: {len(shipped)} shipped cases, {len(inits)} init outputs, "
          f"{len(bad_documents)} bad and {len(good)} good documents: "
          f"{'ok' if not failures else str(len(failures)) + ' failures'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
