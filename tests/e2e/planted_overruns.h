#pragma once
// The stray writes of tests/generators/planted_overflow.cpp that the guard mode
// tests plant, host and GPU, and what the report says of each.
#include <ostream>
#include <string>

namespace harena_test {

// Band bytes wider than any row below, so a whole stray row lands in a band
// and never outside the arena's memory.
constexpr unsigned kPlantedBand = 4096;

struct PlantedSize {
    int w, h;
};
// Below, at and above the generator's estimates (64 x 64).
constexpr PlantedSize kPlantedSizes[] = {{48, 40}, {64, 64}, {128, 96}};

// The shift of the generator's update: (x, y) = (overshoot_x, overshoot_y).
struct Overrun {
    const char *name;
    int x, y;
};
inline void PrintTo(const Overrun &o, std::ostream *os) {
    *os << o.name;
}
constexpr Overrun kOverruns[] = {
    {"OneElementPastTheEnd", 1, 0}, {"OneRowPastTheEnd", 0, 1}, {"OneRowBeforeTheStart", 0, -1}};

// The extent the report gives for `o` in a buffer `w` floats wide.
inline std::string expected_extent(const Overrun &o, int w) {
    if (o.y == 0) {
        return "from 1 to 4 bytes past its end";
    }
    return "from 1 to " + std::to_string(4 * w) + (o.y > 0 ? " bytes past its end" : " bytes before it");
}

}  // namespace harena_test
