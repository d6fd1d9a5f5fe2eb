//! One generation workload of `bench/generate_workloads.toml` called many times on one
//! engine, end to end from the pattern: the driver of the callgrind instruction counts in
//! docs/benchmarks.md.
//!
//! Run with `cargo run --release -p relang-bench --features peer --example generate_calls --
//! WORKLOAD ENGINE CALLS [PATH_ORDER CHAR_ORDER]`, ENGINE `relang` or `regexsolver`; the
//! orders (`sweep`, `interleave`, `shuffled`; `ascending`, `shuffled`) replace the
//! workload's, on relang only. Under `valgrind --tool=callgrind`, the instructions of 11
//! calls minus those of 1, divided by 10, are those of one call, free of start-up costs.
//! The first page is checked like the benches check theirs.

use langcore::{Budget, CharOrder, Dfa, PathOrder};
use relang_bench::{GenerateWorkload, assert_page, generate_peer, load_generate};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [name, engine, calls, orders @ ..] = args.as_slice() else {
        panic!("usage: generate_calls WORKLOAD ENGINE CALLS [PATH_ORDER CHAR_ORDER]");
    };
    let calls: usize = calls.parse().expect("CALLS is a number");
    let workload = load_generate()
        .into_iter()
        .find(|workload| workload.name() == name)
        .unwrap_or_else(|| panic!("no workload {name} in bench/generate_workloads.toml"));
    for call in 0..calls {
        let page = match engine.as_str() {
            "relang" => relang(&workload, orders),
            "regexsolver" => generate_peer(&workload).expect("regexsolver generates"),
            other => panic!("unknown engine {other}: relang or regexsolver"),
        };
        // The check builds a regex: once, so that it is not counted per call.
        if call == 0 {
            assert_page(engine, &workload, &page);
        }
    }
}

/// The page of `workload` on relang, in `orders` when given.
fn relang(workload: &GenerateWorkload, orders: &[String]) -> Vec<String> {
    let budget = Budget::unlimited();
    let dfa = Dfa::from_regex_with(workload.term(), &budget).expect("relang parses");
    let options = match orders {
        [] => workload.options().clone(),
        [path, chars] => {
            let path = match path.as_str() {
                "sweep" => PathOrder::Sweep,
                "interleave" => PathOrder::Interleave,
                "shuffled" => PathOrder::Shuffled,
                other => panic!("unknown path order {other}"),
            };
            let chars = match chars.as_str() {
                "ascending" => CharOrder::Ascending,
                "shuffled" => CharOrder::Shuffled,
                other => panic!("unknown character order {other}"),
            };
            workload.options().clone().with_path_order(path).with_char_order(chars)
        }
        _ => panic!("give both orders or neither"),
    };
    dfa.generate(&options, &budget).expect("relang generates")
}
