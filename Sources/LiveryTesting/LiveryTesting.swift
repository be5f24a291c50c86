@_exported import Livery
