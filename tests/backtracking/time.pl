# Times Perl's regex engine on attack strings (see README.md).
use strict;
use warnings;
use MIME::Base64;
use Encode qw(decode_utf8);
use Time::HiRes qw(time);

my $MIN_SECONDS = 0.02;
my $MAX_PUMPS = 1 << 22;
my $MAX_EXP_PUMPS = 64;
$| = 1;

sub timed {
    my ($regex, $text) = @_;
    my $best;
    for (1 .. 3) {
        my $start = time;
        my $found = $text =~ $regex;
        my $elapsed = time - $start;
        $best = $elapsed if !defined $best || $elapsed < $best;
    }
    return $best;
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
    my $elapsed;
    while (1) {
        $elapsed = timed($regex, $prefix . ($pump x $k) . $suffix);
        last if $elapsed >= $MIN_SECONDS || $k >= ($kind eq 'exp' ? $MAX_EXP_PUMPS : $MAX_PUMPS);
        $k = $kind eq 'exp' ? $k + 1 : $k * 2;
    }
    my $k2 = $kind eq 'exp' ? $k + 4 : 3 * $k;
    printf "%d %.6f %d %.6f\n", $k, $elapsed, $k2, timed($regex, $prefix . ($pump x $k2) . $suffix);
}
