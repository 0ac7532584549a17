require "forkcheck/forkcheck"

module Forkcheck
  VERSION = "0.1.0"
end
