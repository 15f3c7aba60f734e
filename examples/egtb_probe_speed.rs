//! How long a database probe takes on a warm cache, as the search makes it (one thread's
//! `Prober`, no lock): `cargo run --release --example egtb_probe_speed -- DIR [VARIANT]`, where
//! DIR holds databases built by `crownhead egtb build`. Probes positions of every slice of the
//! largest piece count there, half of them with Black to move (mirrored on the way).

use crownhead::egtb::{material, Databases, Indexer};
use crownhead::{Color, Variant};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: egtb_probe_speed DIR [english|russian]");
        std::process::exit(2);
    };
    let variant = match args.next().as_deref() {
        Some("russian") => Variant::Russian,
        _ => Variant::English,
    };
    let Some(db) = Databases::open(dir.as_ref(), variant) else {
        eprintln!("no {variant} databases under {dir}");
        std::process::exit(1);
    };
    let n = db.pieces();
    // A fixed spread of positions over every slice of n pieces (a simple LCG, no dependency).
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut positions = Vec::new();
    for m in material::all(n).into_iter().filter(|m| m.pieces() == n) {
        let ix = Indexer::new(m);
        for _ in 0..2000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let pos = ix.position((seed >> 11) % ix.size());
            positions.push(if seed & 1 == 0 { pos } else { pos.mirrored() });
        }
    }
    let mut prober = db.prober();
    let t = Instant::now();
    let cold: usize = positions.iter().filter_map(|p| prober.probe(p)).count();
    let load = t.elapsed();
    let rounds = 20;
    let t = Instant::now();
    let mut sum = 0u64;
    for _ in 0..rounds {
        for p in &positions {
            if let Some(r) = prober.probe(p) {
                sum += r.distance as u64;
            }
        }
    }
    let warm = t.elapsed();
    let probes = (rounds * positions.len()) as f64;
    let black = positions
        .iter()
        .filter(|p| p.side() == Color::Black)
        .count();
    println!(
        "{variant} {n} pieces: {} positions ({black} Black to move), {cold} answered; first \
         pass (loading the slices) {:.2} s; warm: {:.0} ns a probe over {probes} probes \
         (checksum {sum})",
        positions.len(),
        load.as_secs_f64(),
        warm.as_nanos() as f64 / probes
    );
}
