//! Calendar arithmetic on seconds since the Unix epoch, without a date crate: the quota's
//! monthly windows and the RFC 3339 times of messages and log lines.

use std::time::{SystemTime, UNIX_EPOCH};

pub(crate) const SECONDS_PER_DAY: u64 = 86_400;

/// Seconds since the Unix epoch now (0 before it).
pub(crate) fn unix_now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_secs())
}

/// The date (year, month 1..=12, day 1..=31) of a day counted from 1970-01-01.
///
/// Howard Hinnant's `civil_from_days` (<https://howardhinnant.github.io/date_algorithms.html>),
/// for days on or after the epoch.
pub(crate) fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let shifted = days + 719_468; // days since 0000-03-01
    let era = shifted / 146_097;
    let day_of_era = shifted % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 { month_from_march + 3 } else { month_from_march - 9 };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

/// Days from 1970-01-01 to the first day of `month` of `year` (on or after the epoch).
pub(crate) fn days_from_civil(year: u64, month: u64) -> u64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year / 400;
    let year_of_era = year % 400;
    let day_of_year = (153 * ((month + 9) % 12) + 2) / 5;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// `secs` since the epoch as an RFC 3339 UTC date and time, for messages and log lines.
pub(crate) fn to_rfc3339(secs: u64) -> String {
    let (year, month, day) = civil_from_days(secs / SECONDS_PER_DAY);
    let time = secs % SECONDS_PER_DAY;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        time / 3_600,
        time / 60 % 60,
        time % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_day_of_four_centuries_round_trips() {
        for days in 0..146_097 {
            let (year, month, day) = civil_from_days(days);
            assert_eq!(days_from_civil(year, month) + day - 1, days, "{year}-{month}-{day}");
        }
    }

    #[test]
    fn times_are_rfc3339_in_utc() {
        assert_eq!(to_rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(to_rfc3339(1_709_251_199), "2024-02-29T23:59:59Z");
    }
}
