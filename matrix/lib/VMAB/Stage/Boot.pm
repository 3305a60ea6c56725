package VMAB::Stage::Boot;
# The boot stage: the guest initramfs, the accelerator, and every variant's
# kernel booted under QEMU (several at once, VMAB::Pool), each boot judged
# (VMAB::Stage::Judge) and kept in matrix.json as it ends.  dev_boot is the
# developer's quick boot of one kernel with a few programs.
use strict;
use warnings;
use Exporter 'import';
use Cwd qw(abs_path);
use File::Path qw(make_path);
use POSIX qw(strftime);
use VMAB::File qw(slurp spew);
use VMAB::Guest qw(build_initramfs);
use VMAB::Log qw(info phase);
use VMAB::Pool qw(run_pool);
use VMAB::Provenance qw(run_provenance variant_provenance $SCHEMA_VERSION);
use VMAB::Protocol qw(cmdline);
use VMAB::Qemu qw(boot probe_accel qemu_version $GUEST_CPUS);
use VMAB::Record qw(variant_record counts);
use VMAB::Results qw(load_matrix save_matrix);
use VMAB::Reuse qw(boot_key reusable_boot remember_boot forget_boot);
use VMAB::Scale qw(boot_jobs host_cores host_mem_mib);
use VMAB::Stage::Judge qw(judge_boot);
use VMAB::Variants;

our @EXPORT_OK = qw(boot_stage boot_one dev_boot guest_stage pick_accel);

# guest_stage($ctx, $tree) -> the initramfs of the suite's programs
sub guest_stage {
	my ($ctx, $tree) = @_;
	my (undef, $initrd) = phase('guest: build suite and initramfs', sub {
		build_initramfs(top => $ctx->{top}, tree => $tree, out => "$ctx->{out}/guest",
				log => "$ctx->{logs}/guest.log");
	});
	return $initrd;
}

# pick_accel($ctx, $kernel, $initrd) -> kvm or tcg: --accel, else a probe
# with the given kernel (none: tcg).
sub pick_accel {
	my ($ctx, $kernel, $initrd) = @_;
	my $accel = $ctx->{opt}{accel};
	if ($accel eq 'auto') {
		$accel = defined $kernel ? probe_accel(kernel => $kernel, initrd => $initrd,
						       dir => $ctx->{logs}) : 'tcg';
	}
	info("accelerator: $accel");
	return $accel;
}

# boot_stage($ctx, \@variants, \%built, $tree, $known) -> the matrix (also saved):
# %built is VMAB::Stage::Build's answer; a variant whose build failed is
# recorded BUILDFAIL and not booted.
sub boot_stage {
	my ($ctx, $variants, $built, $tree, $known) = @_;
	my $initrd = guest_stage($ctx, $tree);
	my ($first) = grep { !$built->{$_->{name}}{error} } @$variants;
	my $accel = pick_accel($ctx, $first ? "$ctx->{out}/$first->{name}/bzImage" : undef, $initrd);
	my $m = load_matrix($ctx->{json_file});
	$m->{generated} = strftime('%Y-%m-%d %H:%M:%S UTC', gmtime);
	$m->{accelerator} = $accel;
	$m->{qemu_version} = qemu_version();
	$m->{host_kernel} = (POSIX::uname())[2];
	$m->{source_version} = source_version($tree);
	$m->{run_list} = $ctx->{opt}{list};
	# Each variant this run records carries the run's provenance; those of
	# earlier runs keep theirs (VMAB::Provenance).
	$m->{schema_version} = $SCHEMA_VERSION;
	$m->{run_id} = $m->{generated};
	my $run = run_provenance(run_id => $m->{run_id}, top => $ctx->{top}, tree => $tree,
		tarball => $ctx->{opt}{tarball}, patchdir => "$ctx->{top}/patches", qemu => $m->{qemu_version});
	my $prov = sub { variant_provenance($run, build => "$ctx->{out}/build/$_[0]") };
	my %now = map { $_->{name} => 1 } @$variants;
	my @earlier = sort grep { !$now{$_} } keys %{$m->{variants}};
	info('matrix.json keeps ' . scalar(@earlier) . ' variant(s) from earlier runs, marked so in the report: ' .
	     join(', ', @earlier)) if @earlier;
	my $guest_lists = join(',', map { "/suite/$_" } split /,/, $ctx->{opt}{list});

	# The longest boots first (debug, by its timeout), so that the others
	# fill the second slot alongside instead of waiting behind it.
	my @jobs;
	for my $v (sort { $b->{timeout} <=> $a->{timeout} } @$variants) {
		my $n = $v->{name};
		my $r = $built->{$n};
		if ($r->{error}) {
			$m->{variants}{$n} = variant_record(outcome => 'BUILDFAIL', why => [split /\n/, $r->{error}],
							    phases => $r->{phases});
			$m->{variants}{$n}{provenance} = $prov->($n);
			next;
		}
		push @jobs, [$n, sub {
			boot_one($ctx, variant => $v, phases => $r->{phases}, release => $r->{release},
				 accel => $accel, initrd => $initrd, lists => $guest_lists,
				 qemu => $m->{qemu_version}, known => $known);
		}];
	}
	save_matrix($ctx->{json_file}, $m);
	my $boot_jobs = $ctx->{opt}{'boot-jobs'};
	if (!$boot_jobs) {
		my ($cores, $mem) = (host_cores(), host_mem_mib());
		$boot_jobs = boot_jobs($cores, $mem, $VMAB::Qemu::GUEST_MEM_MIB);
		info(sprintf('boot: %d guest(s) at once (%d cores, %.1f GiB available, %d MiB a guest + %d)',
			     $boot_jobs, $cores, $mem / 1024, $VMAB::Qemu::GUEST_MEM_MIB,
			     $VMAB::Scale::GUEST_OVERHEAD_MIB));
	}
	run_pool($boot_jobs, \@jobs, sub {
		my ($n, $rec) = @_;
		$rec //= variant_record(outcome => 'FAIL', why => ['the driver process for this boot died'],
					phases => $built->{$n}{phases});
		$rec->{provenance} = $prov->($n);
		$m->{variants}{$n} = $rec;
		save_matrix($ctx->{json_file}, $m);
		say_record($n, $rec);
	});
	return $m;
}

# The driver's line on one finished variant, and its unexpected results.
sub say_record {
	my ($n, $rec) = @_;
	my $c = counts($rec);
	my @why = @{$rec->{why} // []};
	info(sprintf('%s: %s: %d results (%d pass, %d skip, %d fail), %d unexpected%s', $n,
		$rec->{outcome}, @$c{qw(all pass skip fail)},
		scalar @{$rec->{problems}}, @why ? ': ' . join('; ', @why > 5 ? (@why[0 .. 4], '...') : @why) : ''));
	for my $p (@{$rec->{problems}}) {
		info("  $p->{mode} $p->{id}: $p->{what} (expected $p->{want}, got $p->{got})");
		info("    | $_") for @{$p->{why} // []};
	}
}

# boot_one($ctx, variant => {...}, phases, release, accel, initrd, lists,
#          qemu => version, known) -> the variant's matrix.json record.
# Boots one variant (or reuses its last clean boot, VMAB::Reuse), then
# judges it.  Runs in a child process of the pool.
sub boot_one {
	my ($ctx, %o) = @_;
	my $v = $o{variant};
	my $n = $v->{name};
	my $out = $ctx->{out};
	my $dir = "$ctx->{logs}/$n";
	my ($timeout, $modes, $append) = boot_plan($ctx, $v, $o{accel}, $o{lists});
	my $key = boot_key(kernel => "$out/$n/bzImage", initrd => $o{initrd},
			   append => $append, accel => $o{accel}, qemu => $o{qemu});
	my $what = "$n: boot and run $ctx->{opt}{list} ($modes, timeout ${timeout}s)";
	my ($secs, $b);
	my $kept = $ctx->{opt}{rerun} ? undef : reusable_boot($dir, $key);
	if (defined $kept) {
		info("$what: reused the clean boot of an identical kernel, initramfs " .
		     "and command line (${kept}s then; --rerun or RERUN=1 boots again)");
		($secs, $b) = ($kept, { timed_out => 0, flooded => 0 });
	} else {
		forget_boot($dir);
		($secs, $b) = phase($what, sub {
			qemu_boot($v, "$out/$n/bzImage", $o{initrd}, $o{accel}, $append, $timeout, $dir);
		});
	}
	my %ph = (%{$o{phases} // {}}, boot => $secs);
	$ph{boot_reused} = 1 if defined $kept;
	my $rec = judge_boot(name => $n, dir => $dir, config => "$out/build/$n/.config",
			     known => $o{known}, tap_dir => $ctx->{results_dir},
			     timed_out => $b->{timed_out}, flooded => $b->{flooded},
			     phases => \%ph, release => $o{release});
	remember_boot($dir, $key, sprintf('%.1f', $secs))
		if !defined $kept && $rec->{outcome} eq 'PASS' && !@{$rec->{problems}};
	return $rec;
}

# boot_plan($ctx, $variant, $accel, $guest_lists) -> (timeout, modes, the
# kernel command line's vmab_ part): the variant's timeout times
# --timeout-factor, a third of it under KVM.
sub boot_plan {
	my ($ctx, $v, $accel, $lists) = @_;
	my $timeout = $v->{timeout} * $ctx->{opt}{'timeout-factor'} / ($accel eq 'kvm' ? 3 : 1);
	my $modes = join(',', @{$v->{modes}});
	return ($timeout, $modes, cmdline(variant => $v->{name}, modes => $modes, list => $lists,
					  cpus => $GUEST_CPUS));
}

# One QEMU run of a variant's kernel, its logs into $dir.
sub qemu_boot {
	my ($v, $kernel, $initrd, $accel, $append, $timeout, $dir) = @_;
	make_path($dir);
	my $swap;
	if (VMAB::Variants::wants_swap_disk($v)) {
		# One per set: make stress may boot a variant while make
		# check boots it too, and QEMU locks the image.
		$swap = "$dir/swap.img";
		truncate_file($swap, 512 << 20);
	}
	return boot(kernel => $kernel, initrd => $initrd, accel => $accel,
		    append => $append, timeout => $timeout, swap_img => $swap,
		    console => "$dir/console.log", results => "$dir/results.log");
}

# dev_boot($ctx, variant => {...}, kernel => bzImage, progs => [names or
#          paths], [list => run list file], [config => .config file], known)
#   -> (record, log folder): one kernel booted with a throw-away initramfs
# holding only the given programs (a name is built from suite/, a path is
# copied as it is) and run once per mode of the variant; judged like a
# matrix boot, by the .config when there is one.  Nothing of make matrix's
# (out/guest, out/logs/V, matrix.json, the reuse keys) is touched: it
# works in out/dev and out/logs/dev/V.
sub dev_boot {
	my ($ctx, %o) = @_;
	my $v = $o{variant};
	my $n = $v->{name};
	my $out = $ctx->{out};
	my $guest = "$out/dev";
	my $dir = "$out/logs/dev/$n";
	my $progs = "$guest/suite";
	make_path($dir, $progs);
	-f $o{kernel} or die "no kernel $o{kernel}: build it (vmab build --variants $n) or give --kernel\n";
	my (@targets, @names);
	for my $p (@{$o{progs}}) {
		if ($p =~ m{/}) {
			-f $p or die "no program $p\n";
			(my $base = $p) =~ s{.*/}{};
			# A program already in the folder (out/dev/suite/P) stays.
			system('cp', $p, "$progs/$base") == 0 or die "cp $p: $?\n"
				unless abs_path($p) eq abs_path("$progs/$base") // '';
			push @names, $base;
		} else {
			push @targets, "$progs/$p";
			push @names, $p;
		}
	}
	spew("$progs/dev.list", defined $o{list} ? slurp($o{list}) : join('', map { "$_\n" } @names));
	my (undef, $initrd) = phase("dev: build @names and the initramfs", sub {
		build_initramfs(top => $ctx->{top}, tree => "$out/src/linux", out => $guest,
				log => "$dir/guest.log", suite_targets => [@targets, "$progs/init"]);
	});
	my $accel = pick_accel({ %$ctx, logs => $dir }, $o{kernel}, $initrd);
	my ($timeout, $modes, $append) = boot_plan($ctx, $v, $accel, '/suite/dev.list');
	my ($secs, $b) = phase("dev: boot $o{kernel} as $n ($modes, timeout ${timeout}s)", sub {
		qemu_boot($v, $o{kernel}, $initrd, $accel, $append, $timeout, $dir);
	});
	my $config = $o{config} // "$out/build/$n/.config";
	my $rec = judge_boot(name => $n, dir => $dir, config => -s $config ? $config : undef,
			     known => $o{known}, timed_out => $b->{timed_out}, flooded => $b->{flooded},
			     phases => { boot => $secs });
	return ($rec, $dir);
}

sub truncate_file {
	my ($f, $size) = @_;
	open(my $fh, '>', $f) or die "cannot create $f: $!\n";
	truncate($fh, $size) or die "cannot size $f: $!\n";
	close($fh);
}

sub source_version {
	my ($tree) = @_;
	my $mk = slurp("$tree/Makefile");
	my %v = $mk =~ /^(VERSION|PATCHLEVEL|SUBLEVEL) = (\d+)/mg;
	return join('.', @v{qw(VERSION PATCHLEVEL SUBLEVEL)});
}

1;
