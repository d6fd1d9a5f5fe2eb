# Home-engine stand-in for PCRE: Perl's regex (ASCII classes, /a), full match \A(?:P)\z.
# Protocol in README.md.
use strict;
use warnings;
use MIME::Base64;
use Encode qw(decode);
use Unicode::UCD;
use Time::HiRes ();

# The code points of `lo-hi,c,...` (hex), surrogates left out, that pass `$test`, in the
# same form.
sub matching {
    my ($ranges, $test) = @_;
    my @runs;
    for my $part (grep { $_ ne '' } split /,/, $ranges) {
        my ($lo, $hi) = map { hex } split /-/, $part;
        $hi //= $lo;
        for my $code ($lo .. $hi) {
            next if ($code >= 0xD800 && $code <= 0xDFFF) || !$test->($code);
            if (@runs && $runs[-1][1] + 1 == $code) { $runs[-1][1] = $code; next; }
            push @runs, [$code, $code];
        }
    }
    return join ',', map { $_->[0] == $_->[1] ? sprintf('%x', $_->[0]) : sprintf('%x-%x', @$_) } @runs;
}

binmode STDERR, ':encoding(UTF-8)';

# A pattern's matches get PATTERN_SECONDS in all: Perl backtracks exponentially on some,
# and then its answer is `T` (its strings answer 0, read by no one). The alarm stops a
# match only under PERL_SIGNALS=unsafe, which the harness sets.
use constant PATTERN_SECONDS => 2;
my ($re, $died, $status, @answers, $spent);

# Prints the pattern read last: its status line, then its strings' answers.
sub flush {
    print "$status\n", map { "$_\n" } @answers if defined $status;
    ($status, @answers) = (undef);
}

while (my $line = <STDIN>) {
    chomp $line;
    next if $line eq '';
    my ($kind, $data) = split / /, $line, 2;
    if ($kind eq 'A') {
        flush();
        my $codes = matching($data // '', sub { defined $re && chr($_[0]) =~ $re });
        print $codes eq '' ? "r\n" : "r $codes\n";
        next;
    }
    if ($kind eq 'V') {
        flush();
        my $codes = matching('0-10ffff', sub { chr($_[0]) =~ /\p{Assigned}/ });
        printf "v %s %s\n", Unicode::UCD::UnicodeVersion(), $codes;
        next;
    }
    my $text = decode('UTF-8', decode_base64((split / /, $data // '')[0] // ''));
    if ($kind eq 'P') {
        flush();
        # \Q...\E is a string escape in Perl, a regex one in PCRE: apply it here.
        $text =~ s/\\Q(.*?)(?:\\E|\z)/quotemeta($1)/ges;
        $re = eval { no warnings; qr/\A(?:$text)\z/a };
        ($died, $spent) = (0, 0);
        $status = defined $re ? 'ok' : 'E';
    } elsif ($status ne 'ok') {
        push @answers, 0;
    } else {
        # Perl can die matching (Perl/perl5#22094: `[^\w\W]*` panics in 5.36): answer no
        # match and say so, rather than end the batch.
        my $started = Time::HiRes::time();
        my $match = eval {
            local $SIG{ALRM} = sub { die "timeout\n" };
            Time::HiRes::alarm(PATTERN_SECONDS - $spent);
            my $matched = $text =~ $re ? 1 : 0;
            Time::HiRes::alarm(0);
            $matched;
        };
        Time::HiRes::alarm(0);
        $spent += Time::HiRes::time() - $started;
        if ($spent >= PATTERN_SECONDS) {
            $status = 'T';
        } elsif (!defined $match) {
            warn "check.pl: matching $re died: $@" unless $died++;
        }
        push @answers, $match // 0;
    }
}
flush();
