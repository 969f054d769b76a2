// ParaView output of a lumped solve: the body surface moved by the lumped rigid-body motion,
// with the contact force as a vector at P, one .vtp per frame and a .pvd collection.
#pragma once

#include <string>
#include <vector>

#include "cases/case.h"
#include "cases/derived.h"
#include "observables/history.h"

namespace rebound::observables {

// Writes DIRECTORY/rigid_body.pvd and DIRECTORY/rigid_body_NNNN.vtp (frames evenly spaced in
// time over the history; columns time, tangential_force, normal_force, center_velocity_t,
// center_velocity_n, spin). Returns the number of frames written.
int write_rigid_body_frames(const std::string& directory, const cases::Case& c,
                            const cases::Derived& d, const History& history, int frames);

}  // namespace rebound::observables
