//! State indices shared by the NFA and DFA.

use crate::budget::{BudgetError, Operation};

/// The index of a state in an automaton.
///
/// A `u32` keeps transition tables half the size of `usize` ones; [`StateId::LIMIT`] is far
/// above any state budget, so the conversion only fails for unlimited budgets.
///
/// # Example
/// ```
/// use langcore::{Dfa, StateId};
///
/// let dfa = Dfa::from_regex("ab")?;
/// let states: Vec<StateId> = dfa.states().collect();
/// assert!(states.contains(&dfa.start()));
/// assert_eq!(states.iter().filter(|&&state| dfa.is_accepting(state)).count(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StateId(u32);

impl StateId {
    /// One more than the largest representable state index.
    ///
    /// # Example
    /// ```
    /// use langcore::StateId;
    ///
    /// assert!(StateId::try_from_index(StateId::LIMIT - 1).is_some());
    /// assert!(StateId::try_from_index(StateId::LIMIT).is_none());
    /// ```
    pub const LIMIT: usize = u32::MAX as usize;

    /// The state at `index`, or a budget error when `index` does not fit.
    pub(crate) fn new(index: usize, op: Operation) -> Result<StateId, BudgetError> {
        u32::try_from(index)
            .ok()
            .filter(|&id| (id as usize) < StateId::LIMIT)
            .map(StateId)
            .ok_or(BudgetError::TooManyStates { op, limit: StateId::LIMIT })
    }

    /// The state at `index`, which the caller knows to be below an existing state count.
    pub(crate) fn from_index(index: usize) -> StateId {
        debug_assert!(index < StateId::LIMIT);
        StateId(index as u32)
    }

    /// This state's position in its automaton's state list.
    ///
    /// # Example
    /// ```
    /// use langcore::{Dfa, StateId};
    ///
    /// let dfa = Dfa::from_regex("a")?;
    /// let indices: Vec<usize> = dfa.states().map(StateId::index).collect();
    /// assert_eq!(indices, [0, 1, 2]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The state at `index`, or `None` when `index` is not below [`StateId::LIMIT`]. For
    /// building a [`Graph`](crate::graph::Graph) by hand; automata number their own states.
    ///
    /// # Example
    /// ```
    /// use langcore::StateId;
    ///
    /// assert_eq!(StateId::try_from_index(7).map(StateId::index), Some(7));
    /// assert_eq!(StateId::try_from_index(StateId::LIMIT), None);
    /// ```
    pub fn try_from_index(index: usize) -> Option<StateId> {
        (index < StateId::LIMIT).then(|| StateId::from_index(index))
    }
}
