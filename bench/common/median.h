// The median every benchmark here reports: the upper middle sample (the
// element at index n/2 once sorted), 0 for no samples.
#pragma once

#include <algorithm>
#include <vector>

namespace harena_bench {

inline double median(std::vector<double> samples) {
    if (samples.empty()) {
        return 0;
    }
    const auto middle = samples.begin() + static_cast<std::ptrdiff_t>(samples.size() / 2);
    std::nth_element(samples.begin(), middle, samples.end());
    return *middle;
}

}  // namespace harena_bench
