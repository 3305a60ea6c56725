package VMAB::Driver;
# matrix/vmab's commands (see its POD): the arguments read into a context
# (the options and the folders they imply), then the stages each command
# runs.  No state outside the context: every stage gets it as an argument.
#   tree    unpack and patch out/src/linux
#   build   tree, then build the kernels
#   boot    boot the built kernels and judge them, then the report; with
#           --prog, a developer's boot of one kernel (VMAB::Stage::Boot::dev_boot);
#           with --fixtures, the host tests' broken boots (VMAB::Fixtures)
#   judge   classify and judge every variant's last boot again
#   report  judge, then write the report
#   run     tree, build, boot, judge and report: the whole matrix
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Path qw(make_path);
use Getopt::Long qw(GetOptionsFromArray);
use VMAB::Expectations qw(load_known);
use VMAB::Lock qw(lock_out);
use VMAB::Log qw(info phase);
use VMAB::Qemu qw(kill_all);
use VMAB::Report qw(write_report);
use VMAB::Report::Data qw(host_bench);
use VMAB::Results qw(load_matrix save_matrix exit_status);
use VMAB::Run qw(check_disk disk_wanted);
use VMAB::Stage::Boot qw(boot_stage dev_boot);
use VMAB::Stage::Build qw(build_stage);
use VMAB::Stage::Judge qw(rejudge_matrix);
use VMAB::Tree qw(prepare_tree);
use VMAB::Variants qw(load_variants select_variants);

our @COMMANDS = qw(tree build boot judge report run);

# parse_args(\@argv, top => project folder, env => \%ENV)
#   -> ($command, \%opt); dies with a usage message.  Options may come
# before or after the command; no command is run.
sub parse_args {
	my ($argv, %o) = @_;
	my $env = $o{env} // {};
	my %opt = (
		variants => $env->{V} // '',
		list => 'run.list',
		tarball => '/usr/src/linux-source-6.1.tar.xz',
		out => "$o{top}/out",
		'timeout-factor' => 1,
		accel => $env->{VMAB_ACCEL} // 'auto',
		rerun => $env->{RERUN} ? 1 : 0,
		prog => [],
	);
	my @args = @$argv;
	GetOptionsFromArray(\@args, \%opt, 'variants|variant|V=s', 'list=s', 'tarball=s', 'out=s',
		'jobs|j=i', 'boot-jobs=i', 'timeout-factor=f', 'accel=s', 'judge!', 'rerun!', 'set=s',
		'prog=s@', 'kernel=s', 'modes=s', 'config=s', 'run-list=s', 'append=s', 'fixtures:s', 'fixtures-dir=s',
		'help|h', 'man')
		or die "bad options\n";
	die "give one command, not @args\n" if @args > 1;
	my $cmd = @args ? $args[0] : 'run';
	die "unknown command '$cmd' (one of @COMMANDS)\n" unless grep { $_ eq $cmd } @COMMANDS;
	die "--accel must be auto, kvm or tcg\n" unless $opt{accel} =~ /^(auto|kvm|tcg)$/;
	my $dev = @{$opt{prog}} || defined $opt{fixtures};
	die "--prog and --fixtures are for vmab boot, one at a time\n"
		if $dev && ($cmd ne 'boot' || @{$opt{prog}} && defined $opt{fixtures});
	die "--kernel, --modes, --config, --run-list and --append are for vmab boot --prog\n"
		if grep { defined $opt{$_} } ($dev ? () : 'kernel'), (@{$opt{prog}} ? () : qw(modes config run-list append));
	die "vmab boot --fixtures needs --kernel\n" if defined $opt{fixtures} && !defined $opt{kernel};
	die "--fixtures-dir is for vmab boot --fixtures\n" if defined $opt{'fixtures-dir'} && !defined $opt{fixtures};
	die "vmab boot --prog boots one variant: give --variant NAME\n"
		if @{$opt{prog}} && $opt{variants} =~ /,/;
	return ($cmd, \%opt);
}

# context($top, \%opt) -> { top, opt, out, set, logs, results_dir,
# json_file, report_dir }.  --set NAME keeps a run's results, report and
# boot logs apart (make bench: bench, make stress: stress), so that they
# neither replace make matrix's nor reuse its boots.
sub context {
	my ($top, $opt) = @_;
	my $out = $opt->{out};
	my $set = $opt->{set} ? "/$opt->{set}" : '';
	return {
		top => $top, opt => $opt, out => $out, set => $opt->{set} // '',
		logs => "$out/logs$set",
		results_dir => "$out/results$set",
		json_file => "$out/results$set/matrix.json",
		report_dir => "$out/report$set",
	};
}

# main(@argv) -> exit status
sub main {
	my (@argv) = @_;
	my $top = abs_path(dirname(__FILE__) . '/../../..');
	my ($cmd, $opt) = eval { parse_args(\@argv, top => $top, env => \%ENV) };
	if (!$cmd) {
		print STDERR "vmab: $@";
		require Pod::Usage;
		Pod::Usage::pod2usage(-exitval => 2, -output => \*STDERR);
	}
	if ($opt->{help} || $opt->{man}) {
		require Pod::Usage;
		Pod::Usage::pod2usage($opt->{man} ? (-verbose => 2) : (1));
	}
	local $SIG{INT} = local $SIG{TERM} = sub {
		VMAB::Pool::stop_children();
		kill_all();
		info("interrupted: SIG$_[0]");
		exit 130;
	};
	my $ctx = context($top, $opt);
	return dev_command($ctx) if $cmd eq 'boot' && @{$opt->{prog}};
	return fixtures_command($ctx) if $cmd eq 'boot' && defined $opt->{fixtures};
	# Held until the driver exits; a second driver on the same out/ is refused.
	my $lock = eval { lock_out($ctx->{out}) } or do { print STDERR $@; return 2 };
	return judge_command($ctx, $cmd) if $cmd eq 'judge' || $cmd eq 'report';
	return matrix_command($ctx, $cmd);
}

# tree, build, boot, run
sub matrix_command {
	my ($ctx, $cmd) = @_;
	my $opt = $ctx->{opt};
	my @lists = split /,/, $opt->{list};
	-f "$ctx->{top}/suite/$_" or die "no program list suite/$_\n" for @lists;
	my $all = load_variants("$ctx->{top}/matrix/variants.conf");
	my $variants = select_variants($all, $opt->{variants});
	my $known = load_known("$ctx->{top}/matrix/known.tsv", "$ctx->{top}/suite");
	make_path($ctx->{logs});
	my $tree = "$ctx->{out}/src/linux";
	my $built;
	if ($cmd eq 'boot') {
		$built = built_before($ctx, $variants);
	} else {
		check_disk($ctx->{out}, disk_wanted(scalar @$variants));
		(undef, $tree) = phase('tree: unpack and patch', sub {
			prepare_tree(tarball => $opt->{tarball}, patchdir => "$ctx->{top}/patches",
				     src => "$ctx->{out}/src", logdir => $ctx->{logs});
		});
		return 0 if $cmd eq 'tree';
		$built = build_stage($ctx, $tree, $variants, $all);
		return (grep { $_->{error} } values %$built) ? 1 : 0 if $cmd eq 'build';
	}
	my $m = boot_stage($ctx, $variants, $built, $tree, $known);
	report($ctx, $m);
	# Non-zero when a variant is not PASS (SPEC 7), and with --judge when
	# a result is unexpected too.
	my ($status, @bad) = exit_status($m, [map { $_->{name} } @$variants], judge => $opt->{judge});
	info(@bad ? 'not clean: ' . join(', ', @bad)
	     : 'all ' . scalar(@$variants) . ' variants PASS, every result as expected');
	return $status;
}

# The report of $m, with make host-bench's figures where it ran (out/results/
# host-bench.json, whatever the set); a corrupt file stops it.
sub report {
	my ($ctx, $m) = @_;
	my $hb = host_bench("$ctx->{out}/results/host-bench.json");
	info('report: ' . write_report($m, $ctx->{report_dir}, $hb));
}

# vmab boot without a build: each variant's kernel as the last build left
# it (out/V/bzImage), with that build's phases from matrix.json.
sub built_before {
	my ($ctx, $variants) = @_;
	my $m = load_matrix($ctx->{json_file});
	my %built;
	for my $v (@$variants) {
		my $n = $v->{name};
		-f "$ctx->{out}/$n/bzImage" or die "no $ctx->{out}/$n/bzImage: vmab build --variants $n first\n";
		my %ph = %{$m->{variants}{$n}{phases} // {}};
		delete @ph{grep { /^boot/ } keys %ph};
		$built{$n} = { phases => \%ph,
			       release => VMAB::Kbuild::kernel_release("$ctx->{out}/build/$n") };
	}
	return \%built;
}

# judge, report: every variant's last boot classified and judged again, by
# the classifier, its .config and matrix/known.tsv as they are now.
sub judge_command {
	my ($ctx, $cmd) = @_;
	my $m = load_matrix($ctx->{json_file});
	die "no results in $ctx->{json_file} yet: run that set first (make matrix, bench or stress)\n"
		unless %{$m->{variants}};
	my $known = load_known("$ctx->{top}/matrix/known.tsv", "$ctx->{top}/suite");
	for my $n (rejudge_matrix($ctx, $m, $known)) {
		my $x = $m->{variants}{$n};
		info("$n: $x->{outcome}, " . scalar(@{$x->{problems}}) . ' unexpected result(s)');
	}
	save_matrix($ctx->{json_file}, $m);
	if ($cmd eq 'report') {
		report($ctx, $m);
		return 0;
	}
	my ($status, @bad) = exit_status($m, [sort keys %{$m->{variants}}], judge => 1);
	info(@bad ? 'not clean: ' . join(', ', @bad) : 'every variant PASS, every result as expected');
	return $status;
}

# vmab boot --prog P: one kernel, a few programs, the results printed.
sub dev_command {
	my ($ctx) = @_;
	my $opt = $ctx->{opt};
	my $name = length $opt->{variants} ? $opt->{variants} : 'dev';
	my ($v) = grep { $_->{name} eq $name } @{load_variants("$ctx->{top}/matrix/variants.conf")};
	$v = { %{$v // { timeout => 900 }}, name => $name };
	$v->{modes} = [split /,/, $opt->{modes} // 'swap-classic'] if defined $opt->{modes} || !$v->{modes};
	VMAB::Variants::mode_traits($_) for @{$v->{modes}};
	my ($rec, $dir) = dev_boot($ctx, variant => $v, progs => $opt->{prog}, list => $opt->{'run-list'},
		kernel => $opt->{kernel} // "$ctx->{out}/$name/bzImage", config => $opt->{config},
		append => $opt->{append},
		known => load_known("$ctx->{top}/matrix/known.tsv", "$ctx->{top}/suite"));
	print dev_summary($rec, $dir);
	return $rec->{outcome} eq 'PASS' && !@{$rec->{problems}} ? 0 : 1;
}

# vmab boot --fixtures [a,b] --kernel K: record broken boots' logs for
# the host tests (VMAB::Fixtures), all of them without a list.
sub fixtures_command {
	my ($ctx) = @_;
	my $opt = $ctx->{opt};
	require VMAB::Fixtures;
	my @names = length $opt->{fixtures} ? split(/,/, $opt->{fixtures}) : @VMAB::Fixtures::FIXTURES;
	my $dir = $opt->{'fixtures-dir'} // "$ctx->{top}/matrix/t/fixtures";
	VMAB::Fixtures::record_fixtures(kernel => $opt->{kernel}, dir => $dir, names => \@names);
	print "$dir/$_.console, $dir/$_.results\n" for @names;
	return 0;
}

# dev_summary($record, $logdir) -> text: every result, a failure's excerpt,
# the boot's outcome and why, the unexpected results, where the logs are.
sub dev_summary {
	my ($x, $dir) = @_;
	my $s = '';
	for my $r (@{$x->{results}}) {
		$s .= sprintf("%-15s %-6s %s%s\n", $r->{mode}, $r->{status}, $r->{test},
			      defined $r->{reason} ? " ($r->{reason})" : '');
		$s .= "                       | $_\n" for @{$r->{excerpt} // []};
	}
	my $c = VMAB::Record::counts($x);
	$s .= "$x->{outcome}: $c->{all} results ($c->{pass} pass, $c->{skip} skip, $c->{fail} fail)\n";
	$s .= "  $_\n" for @{$x->{why}};
	$s .= "unexpected: $_->{mode} $_->{id}: $_->{what} (expected $_->{want}, got $_->{got})\n"
		for @{$x->{problems}};
	$s .= "logs: $dir/console.log, $dir/results.log\n";
	return $s;
}

1;
