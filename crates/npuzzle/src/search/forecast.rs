//! Growth forecasts: a memory-bound search that sees, from the growth of
//! its layers so far, that it cannot finish within its budget stops at
//! once and says what it would need.

use super::{Limit, SearchError, Stats};

/// The error of a memory-bound search (`algorithm`) whose growth so far
/// forecasts `need` states to reach depth `depth`, over `max_states`.
pub(crate) fn states_forecast(
    algorithm: &'static str,
    need: f64,
    max_states: u64,
    depth: u32,
    stats: Stats,
) -> SearchError {
    SearchError::Forecast {
        algorithm,
        limit: Limit::States,
        budget: max_states,
        forecast: need,
        depth,
        stats,
    }
}

/// Forecasts are only made once a search has grown past this many states
/// or nodes, so early noise cannot skip a search that would finish.
pub const FORECAST_MIN: f64 = 5000.0;

/// A forecast is "plain" when it is at least this many times the budget.
pub const FORECAST_MARGIN: f64 = 2.0;

/// `now · (r + r² + … + r^steps)`: what geometric growth at ratio `r` adds
/// over `steps` more layers.
pub fn geometric(now: f64, ratio: f64, steps: u32) -> f64 {
    let mut total = 0.0;
    let mut layer = now;
    for _ in 0..steps {
        layer *= ratio;
        total += layer;
        if total > 1e30 {
            break;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometric_sums() {
        assert_eq!(geometric(1.0, 2.0, 3), 2.0 + 4.0 + 8.0);
        assert_eq!(geometric(5.0, 1.0, 0), 0.0);
    }
}
