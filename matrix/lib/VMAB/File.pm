package VMAB::File;
# Reading and writing whole files.
use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(slurp spew);

# slurp($file): its content, or '' when it cannot be read.
sub slurp {
	my ($f) = @_;
	open(my $fh, '<', $f) or return '';
	local $/;
	my $s = <$fh>;
	return $s // '';
}

sub spew {
	my ($f, $s) = @_;
	open(my $fh, '>', $f) or die "cannot write $f: $!\n";
	print $fh $s;
	close($fh) or die "cannot write $f: $!\n";
}

1;
