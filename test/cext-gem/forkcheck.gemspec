# A small C-extension gem: test/dropin.sh builds it with `gem build`,
# installs it with `gem install --local` against the installed ruby, and
# runs it, to show the fork is a drop-in for extension authors.
Gem::Specification.new do |s|
  s.name        = "forkcheck"
  s.version     = "0.1.0"
  s.summary     = "C-extension smoke test for the CRuby fork"
  s.authors     = ["fork maintainers"]
  s.license     = "BSD-2-Clause"
  s.files       = %w[lib/forkcheck.rb ext/forkcheck/extconf.rb ext/forkcheck/forkcheck.c]
  s.extensions  = %w[ext/forkcheck/extconf.rb]
  s.required_ruby_version = ">= 3.3"
end
