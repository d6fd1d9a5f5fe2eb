# Home-engine stand-in for PCRE: Perl's regex (ASCII classes, /a), full match \A(?:P)\z.
use strict;
use warnings;
use MIME::Base64;
use Encode qw(decode);

binmode STDERR, ':encoding(UTF-8)';
my ($re, $died);
while (my $line = <STDIN>) {
    chomp $line;
    next if $line eq '';
    my ($kind, $data) = split / /, $line, 2;
    my $text = decode('UTF-8', decode_base64($data // ''));
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
