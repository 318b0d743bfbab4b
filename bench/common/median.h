// The median every benchmark here reports: the upper middle sample (the
// element at index n/2 once sorted), 0 for no samples; and the interval
// around it that the benchmarks read ratios against.
#pragma once

#include <algorithm>
#include <cmath>
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

// A distribution-free 95% confidence interval for the median of what the
// samples are drawn from: the k-th smallest and the k-th largest sample, with
// k the largest rank for which fewer than k of n samples fall below the
// median with probability at most 2.5% (binomial, p = 1/2). It assumes only
// that the samples are independent; with fewer than 9 samples k is 1 and
// the interval is the samples' whole range.
struct Interval {
    double low = 0, high = 0;
};

inline Interval median_interval(std::vector<double> samples) {
    if (samples.empty()) {
        return {};
    }
    std::sort(samples.begin(), samples.end());
    const int n = static_cast<int>(samples.size());
    int rank = 1;                                     // P(X < 1) = 0: the whole range at least
    double below = 0, log_term = -n * std::log(2.0);  // log P(X = 0), X ~ Binomial(n, 1/2)
    for (int j = 0; j < n; j++) {
        below += std::exp(log_term);  // P(X <= j)
        if (below > 0.025) {
            break;
        }
        rank = j + 1;                                     // P(X < rank) <= 2.5%
        log_term += std::log(n - j) - std::log(j + 1.0);  // log P(X = j + 1)
    }
    return Interval{samples[rank - 1], samples[n - rank]};
}

}  // namespace harena_bench
