# Home-engine stand-in for PCRE: Perl's regex (ASCII classes, /a), full match \A(?:P)\z.
use strict;
use warnings;
use MIME::Base64;
use Encode qw(decode);

my $re;
while (my $line = <STDIN>) {
    chomp $line;
    next if $line eq '';
    my ($kind, $data) = split / /, $line, 2;
    my $text = decode('UTF-8', decode_base64($data // ''));
    if ($kind eq 'P') {
        # \Q...\E is a string escape in Perl, a regex one in PCRE: apply it here.
        $text =~ s/\\Q(.*?)(?:\\E|\z)/quotemeta($1)/ges;
        $re = eval { no warnings; qr/\A(?:$text)\z/a };
        print defined $re ? "ok\n" : "E\n";
    } else {
        print((defined $re && $text =~ $re) ? "1\n" : "0\n");
    }
}
