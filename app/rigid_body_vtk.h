// ParaView output of a lumped solve: the body surface moved by the lumped rigid-body motion,
// with the contact force as a vector at P, one .vtp per frame and a .pvd collection.
#pragma once

#include <string>
#include <vector>

#include "cases/case.h"
#include "cases/derived.h"
#include "lumped/summary.h"

namespace rebound::app {

// Writes DIRECTORY/rigid_body.pvd and DIRECTORY/rigid_body_NNNN.vtp (frames evenly spaced in
// time over the history). Returns the number of frames written.
int write_rigid_body_frames(const std::string& directory, const cases::Case& c,
                            const cases::Derived& d, const std::vector<lumped::HistoryRow>& rows,
                            int frames);

}  // namespace rebound::app
