import Livery
