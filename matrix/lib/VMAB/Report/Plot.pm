package VMAB::Report::Plot;
# gnuplot SVGs for the report: one data file and one script per plot,
# written next to the report, then gnuplot run on the script.
#   lines_svg($dir, $name, {title, xlabel, ylabel, logx, logy},
#             \@series_titles, \@rows)         rows: [x, y1, y2, ...]
#   bars_svg($dir, $name, {title, ylabel, hline, size}, \@series_titles, \@rows)
#                                                rows: [label, y1, y2, ...]
# A missing value is undef (written as '?').  Each returns the SVG's file
# name (relative to $dir), and dies when gnuplot is missing or fails: every
# plot of the report fails the same way, and the report with it.
use strict;
use warnings;
use Exporter 'import';
use VMAB::File qw(spew);

our @EXPORT_OK = qw(lines_svg bars_svg);
our $GNUPLOT = 'gnuplot';

# A gnuplot string literal.
sub gq { my ($s) = @_; $s =~ s/'/''/g; return "'$s'" }

sub data_text {
	my ($rows) = @_;
	return join('', map { join("\t", map { defined $_ ? $_ : '?' } @$_) . "\n" } @$rows);
}

sub run {
	my ($dir, $name, $script, $rows, $size) = @_;
	$size //= '900,560';
	die "plot size '$size' is not W,H\n" unless $size =~ /^\d+,\d+$/;
	spew("$dir/$name.dat", data_text($rows));
	spew("$dir/$name.gp", "set terminal svg size $size dynamic font 'sans,11'\n" .
		"set output " . gq("$dir/$name.svg") . "\nset datafile missing '?'\n" .
		"set termoption noenhanced\nset datafile separator '\\t'\nset grid\nset key outside right top\n" . $script);
	open(my $save_err, '>&', \*STDERR) or die "dup STDERR: $!\n";
	open(my $save_out, '>&', \*STDOUT) or die "dup STDOUT: $!\n";
	open(STDERR, '>', "$dir/$name.gnuplot.log") or die "$dir/$name.gnuplot.log: $!\n";
	open(STDOUT, '>&', \*STDERR) or die "dup: $!\n";
	my $rc = system($GNUPLOT, "$dir/$name.gp");
	open(STDOUT, '>&', $save_out) or die "restore STDOUT: $!\n";
	open(STDERR, '>&', $save_err) or die "restore STDERR: $!\n";
	unlink "$dir/$name.gnuplot.log" if -z "$dir/$name.gnuplot.log";
	die "plot $name: " . ($rc == -1 || ($rc >> 8) == 127 ? "$GNUPLOT not found"
		: "$GNUPLOT failed, see $dir/$name.gnuplot.log") . "\n"
		if $rc != 0 || !-s "$dir/$name.svg";
	return "$name.svg";
}

# The plot command: a series per data column after the first, "using" $using->(its index).
sub plot {
	my ($dir, $name, $titles, $using) = @_;
	my $file = gq("$dir/$name.dat");
	return 'plot ' . join(", \\\n\t", map { "$file using " . $using->($_) . ' title ' . gq($titles->[$_]) } 0 .. $#$titles) . "\n";
}

sub lines_svg {
	my ($dir, $name, $o, $titles, $rows) = @_;
	my $s = '';
	$s .= "set title " . gq($o->{title}) . "\n" if $o->{title};
	$s .= "set xlabel " . gq($o->{xlabel} // '') . "\nset ylabel " . gq($o->{ylabel} // '') . "\n";
	$s .= "set logscale x 2\nset format x '%.0b%BB'\nset xtics rotate by -45\n" if $o->{logx};
	$s .= "set key below horizontal maxcols 3\n";
	$s .= "set logscale y 10\n" if $o->{logy};
	$s .= plot($dir, $name, $titles, sub { '1:' . ($_[0] + 2) . ' with linespoints' });
	return run($dir, $name, $s, $rows);
}

sub bars_svg {
	my ($dir, $name, $o, $titles, $rows) = @_;
	my $s = "set style data histograms\nset style histogram clustered gap 1\n" .
		"set style fill solid 0.8 border -1\nset yrange [0:*]\nset xtics rotate by -30\n";
	$s .= "set title " . gq($o->{title}) . "\n" if $o->{title};
	$s .= "set ylabel " . gq($o->{ylabel} // '') . "\n";
	$s .= "set arrow from graph 0, first $o->{hline} to graph 1, first $o->{hline} nohead dt 2\n"
		if defined $o->{hline};
	$s .= plot($dir, $name, $titles, sub { ($_[0] + 2) . ($_[0] == 0 ? ':xtic(1)' : '') });
	return run($dir, $name, $s, $rows, $o->{size});
}

1;
