//! What `npuzzle space` prints: the table, CSV, JSON and the SVG plot.

use crate::cluster::Engine;
use npuzzle_space::SpaceResult;

/// `12!/2`, the count the total must equal.
fn total_formula(r: &SpaceResult) -> String {
    format!("{}!/2", r.shape().cells())
}

pub(super) fn plain(r: &SpaceResult) -> String {
    let mut s = String::new();
    let width = r.total().to_string().len().max(9);
    s.push_str(&format!("distance  {:>width$}\n", "positions"));
    for (d, c) in r.counts.iter().enumerate() {
        s.push_str(&format!("{d:>8}  {c:>width$}\n"));
    }
    s.push_str(&format!(
        "total: {} positions ({})\n",
        r.total(),
        total_formula(r)
    ));
    s.push_str(&format!("radius: {}\n", r.radius()));
    s.push_str(&format!("antipodes: {}\n", r.antipode_count()));
    for b in &r.antipodes {
        s.push_str(&format!("  {}\n", b.to_row_string()));
    }
    if (r.antipodes.len() as u64) < r.antipode_count() {
        s.push_str(&format!(
            "  … {} more (--list N)\n",
            r.antipode_count() - r.antipodes.len() as u64
        ));
    }
    s.push_str(&format!("mean distance: {:.3}\n", r.mean()));
    s
}

pub(super) fn csv(r: &SpaceResult) -> String {
    let mut s = String::from("distance,positions\n");
    for (d, c) in r.counts.iter().enumerate() {
        s.push_str(&format!("{d},{c}\n"));
    }
    s
}

pub(super) fn json(
    r: &SpaceResult,
    engine: Engine,
    metric: npuzzle::Metric,
    seconds: f64,
) -> String {
    let v = serde_json::json!({
        "rows": r.shape().rows,
        "cols": r.shape().cols,
        "goal": r.goal.tiles(),
        "counts": r.counts,
        "total": r.total(),
        "radius": r.radius(),
        "antipode_count": r.antipode_count(),
        "antipodes": r.antipodes.iter().map(npuzzle::Board::tiles).collect::<Vec<_>>(),
        "mean": r.mean(),
        "mode": r.mode(),
        "engine": match engine { Engine::Local => "local", Engine::Timely => "timely" },
        "metric": metric,
        "seconds": seconds,
    });
    format!("{v}\n")
}

pub(super) fn plot(r: &SpaceResult) -> Result<String, String> {
    use plotters::prelude::*;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 520)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let max = r.counts.iter().copied().max().unwrap_or(1).max(1);
        let n = r.counts.len() as u32;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!(
                    "{} board: positions by distance from {} (radius {}, mean {:.3})",
                    r.shape(),
                    r.goal.to_row_string(),
                    r.radius(),
                    r.mean()
                ),
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(90)
            .build_cartesian_2d(0u32..n, 0u64..max + max / 20)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("distance (moves)")
            .y_desc("positions")
            .disable_x_mesh()
            .draw()
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(r.counts.iter().enumerate().map(|(d, &c)| {
                let d = d as u32;
                Rectangle::new([(d, 0), (d + 1, c)], BLUE.mix(0.7).filled())
            }))
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}
