//! `crownhead bench` through the binary: which positions each run searches.

use crownhead::Variant;

#[test]
fn bench_searches_each_variants_own_positions_and_the_signature_only_the_first_two() {
    let lines = |args: &[&str]| {
        let out = crate::common::run_with_input(args, b"");
        assert!(out.status.success(), "{args:?}");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    // The signature's run: russian and english positions only.
    let all = lines(&["bench", "--depth", "2"]);
    for v in Variant::ALL {
        let searched = all
            .iter()
            .any(|l| l.split_whitespace().nth(1) == Some(v.name()));
        let signature = matches!(v, Variant::Russian | Variant::English);
        assert_eq!(searched, signature, "{v:?} in the default bench");
    }
    for v in Variant::ALL {
        let own = lines(&["bench", "--depth", "2", "--variant", v.name()]);
        let (last, positions) = own.split_last().expect("lines");
        assert!(last.starts_with("Nodes: "), "{last}");
        assert!(
            positions.len() >= 10,
            "{v:?}: {} positions",
            positions.len()
        );
        assert!(
            positions
                .iter()
                .all(|l| l.split_whitespace().nth(1) == Some(v.name())),
            "{v:?}: {positions:?}"
        );
    }
}
