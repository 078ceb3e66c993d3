//! `--plot FILE.svg`: grouped bars of throughput, hand-written SVG.
//!
//! One panel per algorithm (each with its own y scale, so a slow cipher is as
//! readable as a fast hash), one group of bars per buffer size, one bar per
//! implementation in the legend's colours, each bar labelled with its MB/s.

use std::fmt::Write as _;

use crate::machine::Machine;
use crate::results::{Results, Row, Source};

const BAR: f64 = 16.0;
const BAR_GAP: f64 = 2.0;
const GROUP_GAP: f64 = 22.0;
const PLOT_H: f64 = 220.0;
const LEFT: f64 = 66.0;
const RIGHT: f64 = 14.0;
const TOP: f64 = 34.0;
const BOTTOM: f64 = 46.0;
const HEADER: f64 = 84.0;
const PAD: f64 = 16.0;

/// The fill of each implementation's bars.
fn colour(source: Source) -> &'static str {
    match source {
        Source::Ours => "#1f77b4",
        Source::RustCrypto => "#ff7f0e",
        Source::OpenSsl => "#2ca02c",
    }
}

/// Text safe inside an SVG element or attribute.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A round axis step (1, 2 or 5 × 10ⁿ) and the axis top for values up to `max`,
/// with room above the tallest bar for its label.
fn axis(max: f64) -> (f64, f64) {
    if max <= 0.0 || !max.is_finite() {
        return (0.2, 1.0);
    }
    let want = max * 1.2;
    let raw = want / 5.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude);
    (step, (want / step).ceil() * step)
}

/// A number of MB/s, with fewer decimals the larger it is.
fn mbs(value: f64) -> String {
    match value {
        v if v >= 100.0 => format!("{v:.0}"),
        v if v >= 10.0 => format!("{v:.1}"),
        v => format!("{v:.2}"),
    }
}

/// A tick label with as many decimals as the step needs.
fn tick(value: f64, step: f64) -> String {
    let decimals = if step >= 1.0 {
        0
    } else {
        (-step.log10()).ceil() as usize
    };
    format!("{value:.decimals$}")
}

/// An SVG being written: elements are appended one per line.
struct Svg(String);

impl Svg {
    /// `<text>` at (`x`, `y`); `attrs` are extra attributes, `content` is escaped.
    fn text(&mut self, (x, y): (f64, f64), size: u32, attrs: &str, content: &str) {
        let _ = writeln!(
            self.0,
            r#"<text x="{x:.1}" y="{y:.1}" font-size="{size}"{attrs}>{}</text>"#,
            escape(content)
        );
    }

    /// `<text>` reading upwards from (`x`, `y`).
    fn text_up(&mut self, (x, y): (f64, f64), size: u32, attrs: &str, content: &str) {
        let _ = writeln!(
            self.0,
            r#"<text transform="translate({x:.1},{y:.1}) rotate(-90)" font-size="{size}"{attrs}>{}</text>"#,
            escape(content)
        );
    }

    /// A filled `<rect>`, with a tooltip if `title` is not empty.
    fn rect(&mut self, (x, y, w, h): (f64, f64, f64, f64), fill: &str, title: &str) {
        let _ = write!(
            self.0,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{fill}""#
        );
        let _ = match title {
            "" => writeln!(self.0, "/>"),
            title => writeln!(self.0, "><title>{}</title></rect>", escape(title)),
        };
    }

    /// A `<line>` from `a` to `b`.
    fn line(&mut self, a: (f64, f64), b: (f64, f64), stroke: &str) {
        let _ = writeln!(
            self.0,
            r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{stroke}"/>"#,
            a.0, a.1, b.0, b.1
        );
    }
}

/// The SVG document for `results`.
/// Panels per row: two for a few algorithms, three for a whole run (every algorithm of
/// the registry stays readable in a page about 1600 pixels wide).
fn columns(algs: usize) -> usize {
    match algs {
        0..=1 => 1,
        2..=8 => 2,
        _ => 3,
    }
}

/// The SVG document for `results`, measured on `date` (UTC, `YYYY-MM-DD`).
pub fn render(results: &Results, machine: &Machine, seconds: f64, date: &str) -> String {
    let mut algs: Vec<&'static str> = Vec::new();
    for row in &results.rows {
        if !algs.contains(&row.alg) {
            algs.push(row.alg);
        }
    }
    let sources: Vec<Source> = [Source::Ours, Source::RustCrypto, Source::OpenSsl]
        .into_iter()
        .filter(|&source| results.rows.iter().any(|row| row.source == source))
        .collect();
    let bars = sources.len().max(1) as f64;
    let group_w = bars * BAR + (bars - 1.0) * BAR_GAP;
    let plot_w = (results.sizes.len() as f64 * (group_w + GROUP_GAP)).max(180.0);
    let panel_w = LEFT + plot_w + RIGHT;
    let panel_h = TOP + PLOT_H + BOTTOM;
    let cols = columns(algs.len());
    let rows = algs.len().div_ceil(cols).max(1);
    let title = "simdcrypt speed: throughput in MB/s (10^6 bytes/s, higher is better)";
    let mut subtitle = format!(
        "{} · {} {} · {} logical CPUs · {}s of {} per implementation and size, interleaved",
        date,
        machine.cpu_vendor,
        machine.cpu_model,
        machine.logical_cpus,
        seconds,
        crate::measure::clock::NAME
    );
    if let Some(openssl) = &machine.openssl {
        subtitle += &format!(" · {openssl}");
    }
    // Wide enough for the panels and for the title lines (about 10 and 7 pixels a
    // character at 17 and 12 pixels).
    let text_w = (title.chars().count() as f64 * 10.0).max(subtitle.chars().count() as f64 * 7.0);
    let width = PAD * 2.0 + (cols as f64 * panel_w).max(text_w);
    let height = HEADER + rows as f64 * panel_h + PAD;

    let mut svg = Svg(String::new());
    let _ = writeln!(
        svg.0,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="DejaVu Sans, Arial, sans-serif">"#
    );
    svg.rect((0.0, 0.0, width, height), "white", "");
    svg.text((PAD, 26.0), 17, r#" font-weight="bold""#, title);
    svg.text((PAD, 46.0), 12, r##" fill="#444""##, &subtitle);
    let mut x = PAD;
    for source in &sources {
        svg.rect((x, 60.0, 14.0, 14.0), colour(*source), "");
        svg.text((x + 19.0, 72.0), 13, "", source.name());
        x += 24.0 + 8.0 * source.name().len() as f64;
    }
    for (i, alg) in algs.iter().enumerate() {
        let origin = (
            PAD + (i % cols) as f64 * panel_w,
            HEADER + (i / cols) as f64 * panel_h,
        );
        let rows: Vec<&Row> = results.rows.iter().filter(|row| row.alg == *alg).collect();
        panel(
            &mut svg,
            origin,
            plot_w,
            alg,
            &rows,
            &sources,
            &results.sizes,
        );
    }
    svg.0.push_str("</svg>\n");
    svg.0
}

/// One algorithm's panel with its top-left corner at (`ox`, `oy`) and a plot area
/// `plot_w` wide: one group of bars per size, one bar per source.
fn panel(
    svg: &mut Svg,
    (ox, oy): (f64, f64),
    plot_w: f64,
    alg: &str,
    rows: &[&Row],
    sources: &[Source],
    sizes: &[usize],
) {
    let bars = sources.len().max(1) as f64;
    let group_w = bars * BAR + (bars - 1.0) * BAR_GAP;
    let max = rows
        .iter()
        .flat_map(|row| &row.points)
        .map(|p| p.bytes_per_sec() / 1e6)
        .fold(0.0, f64::max);
    let (step, top) = axis(max);
    let (x0, y0) = (ox + LEFT, oy + TOP + PLOT_H);
    let pitch = plot_w / sizes.len().max(1) as f64;
    let y_of = |v: f64| y0 - v / top * PLOT_H;
    let middle = r#" text-anchor="middle""#;

    svg.0.push_str("<g>\n");
    let bold = r#" font-weight="bold" text-anchor="middle""#;
    svg.text((x0 + plot_w / 2.0, oy + 20.0), 15, bold, alg);
    for t in 0..=(top / step).round() as usize {
        let (v, y) = (t as f64 * step, y_of(t as f64 * step));
        svg.line((x0, y), (x0 + plot_w, y), "#ddd");
        svg.text(
            (x0 - 6.0, y + 4.0),
            11,
            r#" text-anchor="end""#,
            &tick(v, step),
        );
    }
    svg.text_up((ox + 16.0, y0 - PLOT_H / 2.0), 12, middle, "MB/s");
    for (g, size) in sizes.iter().enumerate() {
        let gx = x0 + g as f64 * pitch + (pitch - group_w) / 2.0;
        for (b, source) in sources.iter().enumerate() {
            let Some(row) = rows.iter().find(|row| row.source == *source) else {
                continue;
            };
            let Some(point) = row.points.get(g) else {
                continue;
            };
            let v = point.bytes_per_sec() / 1e6;
            let (bx, by) = (gx + b as f64 * (BAR + BAR_GAP), y_of(v));
            let title = format!("{}, {size} bytes: {} MB/s", row.label(), mbs(v));
            svg.rect((bx, by, BAR, y0 - by), colour(*source), &title);
            svg.text_up((bx + BAR / 2.0 + 3.0, by - 3.0), 9, "", &mbs(v));
        }
        let label = size.to_string();
        svg.text((gx + group_w / 2.0, y0 + 16.0), 11, middle, &label);
    }
    svg.line((x0, y0), (x0 + plot_w, y0), "#333");
    svg.line((x0, y0), (x0, y0 - PLOT_H), "#333");
    let x_label = "buffer size (bytes)";
    svg.text((x0 + plot_w / 2.0, y0 + 36.0), 12, middle, x_label);
    svg.0.push_str("</g>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::tests::sample;

    /// A small well-formedness check: every tag closes in order, quotes pair up,
    /// `&` only starts an entity, and there is exactly one root.
    fn assert_well_formed(xml: &str) {
        let mut stack: Vec<&str> = Vec::new();
        let mut roots = 0;
        let mut rest = xml;
        while let Some(open) = rest.find('<') {
            let text = &rest[..open];
            assert!(!text.contains('>'), "stray > in {text:?}");
            for (i, _) in text.match_indices('&') {
                let entity = &text[i..];
                assert!(
                    ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"]
                        .iter()
                        .any(|e| entity.starts_with(e)),
                    "bare & in {text:?}"
                );
            }
            let close = rest[open..].find('>').expect("unterminated tag") + open;
            let tag = &rest[open + 1..close];
            rest = &rest[close + 1..];
            assert_eq!(
                tag.matches('"').count() % 2,
                0,
                "unbalanced quotes in <{tag}>"
            );
            assert!(!tag.contains('<'), "< inside <{tag}>");
            if tag.starts_with('?') {
                assert!(tag.ends_with('?'));
                continue;
            }
            if let Some(name) = tag.strip_prefix('/') {
                assert_eq!(stack.pop(), Some(name.trim()), "mismatched </{name}>");
                continue;
            }
            let name = tag
                .split_whitespace()
                .next()
                .expect("empty tag")
                .trim_end_matches('/');
            if stack.is_empty() {
                roots += 1;
            }
            if !tag.ends_with('/') {
                stack.push(name);
            }
        }
        assert!(stack.is_empty(), "unclosed {stack:?}");
        assert_eq!(roots, 1);
    }

    fn machine() -> Machine {
        Machine {
            arch: "x86_64",
            os: "linux",
            cpu_vendor: "GenuineIntel".to_owned(),
            cpu_model: "Fast & <Cheap> CPU".to_owned(),
            logical_cpus: 2,
            features: vec![],
            openssl: None,
        }
    }

    #[test]
    fn svg_is_well_formed_and_shows_everything() {
        let results = sample();
        let svg = render(&results, &machine(), 0.5, "2026-12-03");
        assert_well_formed(&svg);
        assert!(svg.contains("2026-12-03 · GenuineIntel Fast &amp; &lt;Cheap&gt; CPU"));
        for source in ["simdcrypt", "RustCrypto", "OpenSSL"] {
            assert!(
                svg.contains(&format!(">{source}</text>")),
                "legend lacks {source}"
            );
        }
        for row in &results.rows {
            for p in &row.points {
                assert!(
                    svg.contains(&format!("<title>{}, {} bytes: ", row.label(), p.size)),
                    "{}",
                    row.label()
                );
            }
        }
        // md5's panel and rc4's panel, a bar for each of the 10 points.
        assert!(svg.contains(">md5</text>") && svg.contains(">rc4</text>"));
        // Background, legend (3) and one bar per point (10).
        assert_eq!(svg.matches("<rect x=").count(), 1 + 3 + 10);
        assert!(
            svg.contains(">600</text>"),
            "the md5 8192-byte bars are labelled 600 MB/s"
        );
    }

    #[test]
    fn checker_rejects_broken_xml() {
        for broken in [
            "<svg><g></svg>",
            "<svg>a & b</svg>",
            "<svg x=\"1></svg>",
            "<a/><b/>",
        ] {
            assert!(
                std::panic::catch_unwind(|| assert_well_formed(broken)).is_err(),
                "{broken}"
            );
        }
    }

    #[test]
    fn many_algorithms_take_three_columns() {
        assert_eq!(
            (columns(1), columns(2), columns(8), columns(51)),
            (1, 2, 2, 3)
        );
        let mut results = sample();
        let md5: Vec<Row> = results
            .rows
            .iter()
            .filter(|row| row.alg == "md5")
            .cloned()
            .collect();
        const NAMES: [&str; 10] = ["a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9"];
        for name in NAMES {
            results.rows.extend(md5.iter().cloned().map(|mut row| {
                row.alg = name;
                row
            }));
        }
        let svg = render(&results, &machine(), 0.5, "2026-12-03");
        assert_well_formed(&svg);
        for name in NAMES {
            assert!(svg.contains(&format!(">{name}</text>")), "{name}");
        }
        // Every bar of every panel: the sample's 10, and 3 implementations x 2 sizes for
        // each of the 10 copies of md5.
        assert_eq!(svg.matches("<rect x=").count(), 1 + 3 + 10 + 60);
    }

    #[test]
    fn axis_steps_are_round() {
        assert_eq!(axis(600.0), (200.0, 800.0));
        assert_eq!(axis(95.0), (50.0, 150.0));
        assert_eq!(axis(0.0), (0.2, 1.0));
        let (step, top) = axis(3.3);
        assert_eq!(step, 1.0);
        assert!(top >= 3.3 * 1.2 && top == 4.0);
        assert_eq!(tick(0.4, 0.2), "0.4");
        assert_eq!(tick(400.0, 200.0), "400");
        assert_eq!(mbs(612.34), "612");
        assert_eq!(mbs(12.34), "12.3");
        assert_eq!(mbs(1.234), "1.23");
    }
}
