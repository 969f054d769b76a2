// Included FIRST by the translation units that compile deal.II's matrix-free templates for a
// SIMD width other than the library's own (REBOUND_SIMD_BITS, set by fem/CMakeLists.txt):
// deal.II chooses VectorizedArray's specialisations from DEAL_II_VECTORIZATION_WIDTH_IN_BITS
// (0 in Debian's build, which targets any x86-64 CPU). Only the instruction set the unit is
// compiled for may be named here: 128 bits, SSE2, which every x86-64 CPU has (linked into
// fem); 256 bits, AVX2 + FMA, compiled with -mavx2 -mfma into the separate module
// rebound_fem_avx2; 512 bits, AVX-512F, compiled with -mavx512f into rebound_fem_avx512. A
// module is loaded only on a CPU that has its instructions (fem/internal_force.cpp).
// The types these units instantiate carry the width in their names (VectorizedArray<double,
// 2>), so they cannot be confused with the library's one-lane instantiations.
// REBOUND_SIMD_LANES is the number of doubles per vector (2, 4 or 8).
#pragma once

#ifndef REBOUND_SIMD_BITS
#error "fem/simd_lanes.h needs REBOUND_SIMD_BITS"
#endif

#include <deal.II/base/config.h>

// deal.II's evaluation factories (FEEvaluationFactory and its face and hanging-node siblings) hold
// a fast path for every polynomial degree up to FE_EVAL_FACTORY_DEGREE_MAX (6 by default) and
// quadrature variant; the FEM uses degrees 1 and 2 only (fem.degree), so these units instantiate
// the paths up to 2, and any other degree would take deal.II's generic path. The paths compiled
// are the same code for degrees 1 and 2; the units compile in a fraction of the time
// (docs/PERFORMANCE.md, "Build time").
#define FE_EVAL_FACTORY_DEGREE_MAX 2

#undef DEAL_II_VECTORIZATION_WIDTH_IN_BITS
#define DEAL_II_VECTORIZATION_WIDTH_IN_BITS REBOUND_SIMD_BITS
#undef DEAL_II_COMPILER_VECTORIZATION_LEVEL
#if REBOUND_SIMD_BITS == 128
#define REBOUND_SIMD_LANES 2
#define DEAL_II_COMPILER_VECTORIZATION_LEVEL 1
#if !defined(__SSE2__)
#error "fem/simd_lanes.h: 128-bit lanes need SSE2"
#endif
#elif REBOUND_SIMD_BITS == 256
#define REBOUND_SIMD_LANES 4
#define DEAL_II_COMPILER_VECTORIZATION_LEVEL 2
#if !defined(__AVX2__) || !defined(__FMA__)
#error "fem/simd_lanes.h: 256-bit lanes are compiled with -mavx2 -mfma"
#endif
#elif REBOUND_SIMD_BITS == 512
#define REBOUND_SIMD_LANES 8
#define DEAL_II_COMPILER_VECTORIZATION_LEVEL 3
#if !defined(__AVX512F__)
#error "fem/simd_lanes.h: 512-bit lanes are compiled with -mavx512f"
#endif
#else
#error "fem/simd_lanes.h: REBOUND_SIMD_BITS must be 128, 256 or 512"
#endif
