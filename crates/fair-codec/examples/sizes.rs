//! Prints the FAIR length of typical automata, for `docs/benchmarks.md`.
//!
//! Run with `cargo run -p fair-codec --example sizes`.

use fair_codec::{FairCodec, Keyring};
use langcore::graph::Graph;
use langcore::{Budget, Dfa, Nfa};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let budget = Budget::default();
    let password = Dfa::intersection_all(
        &[
            &Dfa::from_regex("[a-zA-Z0-9]{6,8}")?,
            &Dfa::from_regex(".*[0-9].*")?,
            &Dfa::from_regex(".*[A-Z].*")?,
        ],
        &budget,
    )?;
    let rows: [(&str, Dfa); 3] = [
        ("`(abc\\|de){2}`", Dfa::from_regex("(abc|de){2}")?),
        ("`[a-zA-Z0-9]{6,8}` ∩ `.*[0-9].*` ∩ `.*[A-Z].*`", password),
        ("`\\w{20}`", Dfa::from_regex("\\w{20}")?),
    ];
    let codec = FairCodec::new(Keyring::development());
    println!("| Automaton | States (graph) | Moves | Distinct labels' ranges | FAIR length |");
    println!("|---|---|---|---|---|");
    for (name, dfa) in &rows {
        print_row(&codec, &format!("minimal DFA of {name}"), &dfa.to_graph());
    }
    let nfa = Nfa::from_regex("\\w{20}")?.to_graph(&budget)?;
    print_row(&codec, "ε-free NFA of `\\w{20}`", &nfa);
    Ok(())
}

fn print_row(codec: &FairCodec, name: &str, graph: &Graph) {
    let mut labels: Vec<_> =
        graph.states().iter().flat_map(|state| &state.moves).map(|m| &m.0).collect();
    labels.sort();
    labels.dedup();
    let n_ranges: usize = labels.iter().map(|label| label.ranges().len()).sum();
    let text = codec.encode(graph);
    println!(
        "| {name} | {} | {} | {n_ranges} | {} |",
        graph.n_states(),
        graph.n_moves(),
        text.len()
    );
}
