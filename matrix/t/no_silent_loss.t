# Nothing is lost without a word, each with a fixture
# that has the fault: a malformed or truncated "# @data" line is a problem
# the judge reports; a corrupt matrix.json stops the report instead of
# becoming an empty one, and so does a corrupt host-bench.json; a plot that
# fails fails the report, the same way in every section.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use File::Copy qw(copy);
use VMAB::Driver;
use VMAB::File qw(slurp spew);
use VMAB::Results qw(load_matrix);
use VMAB::Stage::Judge qw(judge_boot);
use VMAB::Report qw(write_report);

my $fx = "$FindBin::Bin/fixtures";

# A results log whose "# @data" line was cut off mid-way (baddata.results:
# clean.results with one such line): the boot is judged with a problem.
{
	my $dir = tempdir(CLEANUP => 1);
	copy("$fx/baddata.$_", "$dir/$_.log") or die $! for qw(console results);
	my $rec = judge_boot(name => 'dev', dir => $dir, config => undef);
	is_deeply([map { [@$_{qw(mode id what)}] } @{$rec->{problems}}],
		  [['swap-classic', 'base_test/*', 'malformed @data line']],
		  'a truncated @data line is an unexpected result of its mode and program');
	like($rec->{problems}[0]{why}[0], qr/cut off\), so its figures are lost: # \@data \{"kind":"scenario"/,
	     '... saying so and quoting the line');
	copy("$fx/clean.$_", "$dir/$_.log") or die $! for qw(console results);
	is_deeply(judge_boot(name => 'dev', dir => $dir, config => undef)->{problems}, [], 'the clean log has none');
}

# A corrupt matrix.json (truncated-matrix.json: the first 4000 bytes of
# report-matrix.json) stops vmab report with an error; so does an empty one.
{
	ok(!eval { load_matrix("$fx/truncated-matrix.json"); 1 }, 'a truncated matrix.json is not read as empty');
	like($@, qr/truncated-matrix\.json is not valid JSON \(.+\): fix it or remove it/, '... the error names the file');
	my $dir = tempdir(CLEANUP => 1);
	open(my $fh, '>', "$dir/matrix.json") or die;
	close $fh;
	ok(!eval { load_matrix("$dir/matrix.json"); 1 }, 'an empty matrix.json stops too');
	is_deeply(load_matrix("$dir/none.json"), { variants => {} }, 'no matrix.json yet: an empty matrix');
	open($fh, '>', "$dir/list.json") or die;
	print $fh "[1,2]\n";
	close $fh;
	eval { load_matrix("$dir/list.json") };
	like($@, qr/not a matrix\.json/, 'JSON that is not a matrix stops too');
	my $out = tempdir(CLEANUP => 1);
	mkdir "$out/results";
	copy("$fx/truncated-matrix.json", "$out/results/matrix.json") or die $!;
	local $VMAB::Log::QUIET = 1;
	ok(!eval { VMAB::Driver::main('report', '--out', $out); 1 }, 'vmab report on it dies');
	like($@, qr/not valid JSON/, '... with the error') or diag $@;
	ok(!-e "$out/report/report.md", '... and writes no report');
	is(-s "$out/results/matrix.json", -s "$fx/truncated-matrix.json", '... nor replaces the file');
}

# A corrupt host-bench.json (make host-bench's, cut off) stops vmab report
# the same way; without one, the report says the host was not measured.
{
	my $out = tempdir(CLEANUP => 1);
	mkdir "$out/results";
	copy("$fx/report-matrix.json", "$out/results/matrix.json") or die $!;
	spew("$out/results/host-bench.json", substr(slurp("$fx/host-bench.json"), 0, 500));
	local $VMAB::Log::QUIET = 1;
	ok(!eval { VMAB::Driver::main('report', '--out', $out); 1 }, 'vmab report on a cut-off host-bench.json dies');
	like($@, qr/host-bench\.json is not valid JSON/, '... with the error') or diag $@;
	ok(!-e "$out/report/report.md", '... and writes no report');
	unlink "$out/results/host-bench.json";
	is(VMAB::Driver::main('report', '--out', $out), 0, 'without it, vmab report writes the report');
	like(slurp("$out/report/report.md"), qr/\(`make host-bench`\): not measured in this run\./,
	     '... saying the host was not measured');
}

# A plot that fails fails the whole report, whichever section draws it.
{
	local $VMAB::Report::Plot::GNUPLOT = '/nonexistent/gnuplot';
	my $m = load_matrix("$fx/report-matrix.json");
	my $dir = tempdir(CLEANUP => 1);
	ok(!eval { write_report($m, $dir); 1 }, 'a missing gnuplot fails the report');
	like($@, qr{^plot \S+: /nonexistent/gnuplot not found$}, '... naming the plot and why');
	ok(!-e "$dir/report.md", '... and no report is written');
}
done_testing;
