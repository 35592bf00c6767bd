//! Work spread over the machine's cores with scoped threads: what the loader (parsing each
//! definition file), the code generator (the layout keys and each CPU model's file) and the
//! formatter use to keep `cargo xtask gen` under a second. Results come back in input order,
//! so the output never depends on the number of threads or their timing.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// `work(i)` for every `i` of `order`, taken in that order by as many threads as there are
/// cores (or the current thread alone, for one item or one core); the result of `i` at index
/// `i` of a vector of `len`, `None` where `order` does not name an index or its thread
/// panicked.
pub fn run_ordered<T: Send>(
    order: &[usize],
    len: usize,
    work: &(dyn Fn(usize) -> T + Sync),
) -> Vec<Option<T>> {
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    if threads <= 1 || order.len() <= 1 {
        let mut done: Vec<Option<T>> = (0..len).map(|_| None).collect();
        for &i in order {
            done[i] = Some(work(i));
        }
        return done;
    }
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Option<T>>> = Mutex::new((0..len).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads.min(order.len()) {
            s.spawn(|| {
                while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let r = work(i);
                    done.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(r);
                }
            });
        }
    });
    done.into_inner().unwrap_or_else(|p| p.into_inner())
}

/// `f` over every item of `items` on every core, results in the items' order. A panic in `f`
/// is raised again here (as the sequential loop would).
pub fn map<I: Sync, T: Send>(items: &[I], f: &(dyn Fn(&I) -> T + Sync)) -> Vec<T> {
    let order: Vec<usize> = (0..items.len()).collect();
    let done = run_ordered(&order, items.len(), &|i| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&items[i])))
    });
    done.into_iter()
        .map(|r| match r {
            Some(Ok(t)) => t,
            Some(Err(panic)) => std::panic::resume_unwind(panic),
            None => unreachable!("every index of `order` is run"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_input_order() {
        let items: Vec<u64> = (0..1000).collect();
        assert_eq!(
            map(&items, &|x| x * 3),
            items.iter().map(|x| x * 3).collect::<Vec<_>>()
        );
        assert!(map::<u64, u64>(&[], &|x| *x).is_empty());
    }

    #[test]
    fn a_panic_in_a_worker_reaches_the_caller() {
        let items: Vec<u32> = (0..64).collect();
        let r = std::panic::catch_unwind(|| {
            map(&items, &|&x| {
                assert!(x != 40, "item 40");
                x
            })
        });
        assert!(r.is_err());
    }

    #[test]
    fn run_ordered_leaves_unnamed_indices_empty() {
        let done = run_ordered(&[2, 0], 3, &|i| i * 10);
        assert_eq!(done, vec![Some(0), None, Some(20)]);
    }
}
