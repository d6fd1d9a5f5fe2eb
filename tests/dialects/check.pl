# Home-engine stand-in for PCRE: Perl's regex (ASCII classes, /a), full match \A(?:P)\z.
# Protocol in README.md.
use strict;
use warnings;
use MIME::Base64;
use Encode qw(decode);
use Unicode::UCD;

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
my ($re, $died);
while (my $line = <STDIN>) {
    chomp $line;
    next if $line eq '';
    my ($kind, $data) = split / /, $line, 2;
    if ($kind eq 'A') {
        my $codes = matching($data // '', sub { defined $re && chr($_[0]) =~ $re });
        print $codes eq '' ? "r\n" : "r $codes\n";
        next;
    }
    if ($kind eq 'V') {
        my $codes = matching('0-10ffff', sub { chr($_[0]) =~ /\p{Assigned}/ });
        printf "v %s %s\n", Unicode::UCD::UnicodeVersion(), $codes;
        next;
    }
    my $text = decode('UTF-8', decode_base64((split / /, $data // '')[0] // ''));
    if ($kind eq 'P') {
        # \Q...\E is a string escape in Perl, a regex one in PCRE: apply it here.
        $text =~ s/\\Q(.*?)(?:\\E|\z)/quotemeta($1)/ges;
        $re = eval { no warnings; qr/\A(?:$text)\z/a };
        $died = 0;
        print defined $re ? "ok\n" : "E\n";
    } else {
        # Perl can die matching (Perl/perl5#22094: `[^\w\W]*` panics in 5.36): answer no
        # match and say so, rather than end the batch.
        my $match = defined $re ? eval { $text =~ $re ? 1 : 0 } : 0;
        if (!defined $match) {
            warn "check.pl: matching $re died: $@" unless $died++;
            $match = 0;
        }
        print "$match\n";
    }
}
