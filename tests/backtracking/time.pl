# Times Perl's regex engine on attack strings (see README.md).
use strict;
use warnings;
use MIME::Base64;
use Encode qw(decode_utf8);
use List::Util qw(min);
use Time::HiRes qw(clock_gettime CLOCK_PROCESS_CPUTIME_ID);

my $MIN_SECONDS = 0.05;
my $MAX_PUMPS = 1 << 22;
my $MAX_EXP_PUMPS = 64;
my $ROUNDS = 3;
$| = 1;

# CPU time, not the wall clock: time spent waiting for a core on a busy machine is not the
# engine's.
sub timed {
    my ($regex, $text) = @_;
    my $start = clock_gettime(CLOCK_PROCESS_CPUTIME_ID);
    my $found = $text =~ $regex;
    return clock_gettime(CLOCK_PROCESS_CPUTIME_ID) - $start;
}

while (my $line = <STDIN>) {
    chomp $line;
    my @parts = split / /, $line, -1;    # an empty suffix is an empty last field
    next unless @parts >= 7 && $parts[0] eq 'C';
    my ($mode, $kind) = @parts[1, 2];
    my ($pattern, $prefix, $pump, $suffix) = map { decode_utf8(decode_base64($_)) } @parts[3 .. 6];
    my $regex = eval { $mode eq 'full' ? qr/\A(?:$pattern)\z/ : qr/$pattern/ };
    if (!defined $regex) {
        print "invalid\n";
        next;
    }
    my $k = $kind eq 'exp' ? 1 : 8;
    my $limit = $kind eq 'exp' ? $MAX_EXP_PUMPS : $MAX_PUMPS;
    while (timed($regex, $prefix . ($pump x $k) . $suffix) < $MIN_SECONDS && $k < $limit) {
        $k = $kind eq 'exp' ? $k + 1 : $k * 2;
    }
    my $k2 = $kind eq 'exp' ? $k + 2 : 3 * $k;
    my ($text1, $text2) = ($prefix . ($pump x $k) . $suffix, $prefix . ($pump x $k2) . $suffix);
    my ($t1, $t2);
    for (1 .. $ROUNDS) {
        $t1 = min(grep { defined } $t1, timed($regex, $text1));
        $t2 = min(grep { defined } $t2, timed($regex, $text2));
    }
    printf "%d %.6f %d %.6f\n", $k, $t1, $k2, $t2;
}
